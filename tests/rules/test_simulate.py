"""The simulate command prints a readable game and its final scores."""

from __future__ import annotations

import pytest

from app.rules.simulate import main, play_greedy


def test_simulate_prints_log_and_scores(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "2", "--seed", "3"])
    out = capsys.readouterr().out
    assert "=== Round 1" in out and "=== Round 6" in out
    assert "Final scores after" in out
    assert out.count("seat 0:") + out.count("seat 1:") == 2


def test_simulate_solo_reports_victoria(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "1", "--seed", "4", "--random-locations"])
    out = capsys.readouterr().out
    assert "Victoria:" in out and ("the player won" in out or "the player lost" in out)


def test_greedy_play_is_deterministic() -> None:
    a = play_greedy(5, {"players": 3, "full_selection": True})
    b = play_greedy(5, {"players": 3, "full_selection": True})
    assert a[0] == b[0] and a[1] == b[1]


def test_simulate_with_undo_rate_narrates_undos(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "2", "--seed", "3", "--undo-rate", "0.1"])
    out = capsys.readouterr().out
    assert "Seat 0 takes back 1 move" in out or "Seat 1 takes back 1 move" in out
    assert "Final scores after" in out


def test_undo_rate_games_replay_and_default_has_no_undo() -> None:
    from app.rules import replay

    options = {"players": 3}
    state, record, log = play_greedy(8, options, 0.2)
    undos = [e for e in record if e["move"]["kind"] == "undo"]
    assert undos and len(undos) == sum(1 for e in log if e["type"] == "moves_taken_back")
    assert replay(8, options, record) == state
    _state, plain, _log = play_greedy(8, options)
    assert all(e["move"]["kind"] != "undo" for e in plain)


def test_undo_rate_must_be_a_probability() -> None:
    with pytest.raises(SystemExit):
        main(["--undo-rate", "1.5"])
