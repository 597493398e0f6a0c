"""The public API: options, turn order, move codec, purity of apply_move, replay."""

from __future__ import annotations

import json

import pytest

from app.rules import (
    BadOptionsError,
    GameOptions,
    IllegalMoveError,
    Move,
    apply_move,
    decode_move,
    decode_state,
    encode_move,
    encode_state,
    legal_moves,
    new_game,
    outcome,
    replay,
    to_act,
    view_for,
)

from .helpers import expect_illegal, random_playout, start


@pytest.mark.parametrize(
    "options",
    [
        {"players": 0},
        {"players": 5},
        {"players": "2"},
        {"players": 2, "start_player": 2},
        {"players": 2, "colour": "red"},
        {"players": 2, "random_locations": "yes"},
        {"players": 2, "building_start": -1},
    ],
)
def test_bad_options_raise(options: dict[str, object]) -> None:
    with pytest.raises(BadOptionsError):
        new_game(1, options)


def test_options_forms_agree() -> None:
    a = new_game(5, {"players": 3, "start_player": 1})
    b = new_game(5, GameOptions(players=3, start_player=1))
    assert a == b
    assert new_game(5, None) == new_game(5, {"players": 2})


def test_same_seed_same_game_and_seeds_differ() -> None:
    assert new_game(9, {"players": 4}) == new_game(9, {"players": 4})
    assert new_game(9, {"players": 4}) != new_game(10, {"players": 4})


def test_random_start_player_comes_from_seed() -> None:
    starts = {
        view_for(new_game(s, {"players": 4}), None)["options"]["start_player"] for s in range(30)
    }
    assert starts == {0, 1, 2, 3}


def test_to_act_and_legal_moves_for_other_seats() -> None:
    s = start(3, start_player=1)
    assert to_act(s) == [1]
    assert legal_moves(s, 0) == []
    assert legal_moves(s, 7) == []
    assert all(m.kind == "play_card" for m in legal_moves(s, 1))


def test_apply_move_never_mutates_input() -> None:
    s = start(2)
    before = encode_state(s)
    move = legal_moves(s, 0)[0]
    after = apply_move(s, 0, move).state
    assert encode_state(s) == before
    assert after != s


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"kind": "fly"}, "unknown_kind"),
        ({"card": "gold"}, "malformed_move"),
        ("play_card", "malformed_move"),
        ({"kind": "play_card", "card": "gold"}, "malformed_move"),
        ({"kind": "play_card", "card": "gold", "slot": "1"}, "malformed_move"),
        ({"kind": "play_card", "card": "gold", "slot": True}, "malformed_move"),
        ({"kind": "play_card", "card": "gold", "slot": 1, "x": 1}, "malformed_move"),
        ({"kind": "hire_advisor", "advisor": "baker", "pay": {"gems": 1}}, "malformed_move"),
        ({"kind": "hire_advisor", "advisor": "baker", "pay": {"wood": -1}}, "malformed_move"),
        ({"kind": "harvest", "extra": "bread"}, "malformed_move"),
    ],
)
def test_decode_errors(move: object, code: str) -> None:
    with pytest.raises(IllegalMoveError) as err:
        decode_move(move)  # type: ignore[arg-type]
    assert err.value.code == code
    expect_illegal(start(2), 0, move, code)


def test_not_your_turn() -> None:
    s = start(2)
    expect_illegal(s, 1, {"kind": "play_card", "card": "gold", "slot": 1}, "not_your_turn")


def test_move_codec_round_trip() -> None:
    s = start(2)
    for m in legal_moves(s, 0):
        wire = encode_move(m)
        assert json.loads(json.dumps(wire)) == wire
        assert decode_move(wire) == m
    assert decode_move({"kind": "end_visit"}) == Move("end_visit", {})
    assert decode_move({"kind": "market_gold", "pay": {"wood": 1, "grain": 0}}).args == {
        "pay": {"wood": 1}
    }


def test_a_transition_carries_its_move_in_the_form_the_log_stores() -> None:
    """``Transition.move`` is ``encode_move(decode_move(move))``: the canonical form of the move
    as sent, for a move (as a ``Move`` or as sent on the wire) and for an undo."""
    s = start(2)
    for m in legal_moves(s, 0):
        tr = apply_move(s, 0, m)
        assert (
            tr.move
            == encode_move(m)
            == apply_move(s, 0, dict(reversed(encode_move(m).items()))).move
        )
        assert list(tr.move) == list(encode_move(m))  # its keys in the codec's order
        assert json.loads(json.dumps(tr.move)) == tr.move
    first = apply_move(s, 0, legal_moves(s, 0)[0]).state
    undone = apply_move(first, 0, {"kind": "undo", "to": 0})
    assert undone.move == {"kind": "undo", "to": 0}


def test_state_codec_round_trip_is_json() -> None:
    s = start(4, random_locations=True)
    blob = encode_state(s)
    text = json.dumps(blob)
    back = decode_state(json.loads(text))
    assert back == s
    assert encode_state(back) == blob
    with pytest.raises(ValueError):
        decode_state({"players": 2})


def test_replay_accepts_pairs_and_dicts_and_finishes() -> None:
    opts = {"players": 2, "start_player": 0}
    final, record = random_playout(3, opts)
    assert replay(3, opts, record) == final
    as_dicts = [{"seat": seat, "move": encode_move(m)} for seat, m in record]
    assert replay(3, opts, as_dicts) == final
    assert to_act(final) == []
    assert outcome(final) is not None
    expect_illegal(final, 0, {"kind": "end_turn"}, "game_over")


def test_outcome_is_none_while_playing() -> None:
    assert outcome(start(2)) is None
