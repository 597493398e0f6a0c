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
