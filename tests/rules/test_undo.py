"""Taking back moves of one's own turn: scripted undos, refusals with typed codes, views."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules import (
    GameState,
    IllegalMoveError,
    apply_move,
    decode_move,
    encode_state,
    legal_moves,
    new_game,
    replay,
    to_act,
    undo_points,
    view_for,
)

from .helpers import edit, events, expect_illegal, give, hand, legal, play, start, visit


def undo(state: GameState, seat: int, to: int) -> GameState:
    return play(state, seat, {"kind": "undo", "to": to})


def opening(state: GameState) -> list[GameState]:
    """Seat 0 plays take_wood, takes the wood and moves its countryside councilor."""
    s0 = hand(state, 0, ["take_wood", "take_stone", "gold"])
    s1 = play(s0, 0, {"kind": "play_card", "card": "take_wood", "slot": 2})
    s2 = play(s1, 0, {"kind": "card_action"})
    s3 = play(s2, 0, {"kind": "move", "councilor": "countryside"})
    return [s0, s1, s2, s3]


def same_position(a: GameState, b: GameState) -> None:
    """Equal trees, views, legal moves and RNG draw counters."""
    assert a == b
    assert encode_state(a) == encode_state(b)
    for seat in (None, 0, 1):
        assert view_for(a, seat) == view_for(b, seat)
    for seat in (0, 1):
        assert legal(a, seat) == legal(b, seat)
    assert a.tree["rng"]["draws"] == b.tree["rng"]["draws"]


def test_take_back_one_move() -> None:
    s0, s1, _s2, _s3 = opening(start(2))
    assert undo_points(s0, 0) == []
    assert undo_points(s1, 0) == [{"to": 0, "moves": 1}]
    tr = apply_move(s1, 0, {"kind": "undo", "to": 0})
    assert tr.events == [{"type": "moves_taken_back", "seat": 0, "count": 1}]
    same_position(tr.state, s0)


def test_take_back_several_moves_to_any_earlier_point() -> None:
    s0, s1, s2, s3 = opening(start(2))
    assert undo_points(s3, 0) == [
        {"to": 2, "moves": 1},
        {"to": 1, "moves": 2},
        {"to": 0, "moves": 3},
    ]
    same_position(undo(s3, 0, 2), s2)
    same_position(undo(s3, 0, 1), s1)
    same_position(undo(s3, 0, 0), s0)
    # step by step reaches the same places, and a different line of play can follow
    back = undo(undo(s3, 0, 2), 0, 1)
    same_position(back, s1)
    other = play(back, 0, {"kind": "move", "councilor": "town"})
    assert other.tree["councilors"][0]["town"] != s3.tree["councilors"][0]["town"]
    assert undo_points(other, 0) == [{"to": 1, "moves": 1}, {"to": 0, "moves": 2}]


def test_undo_is_never_a_legal_move_and_shows_in_the_turn_view() -> None:
    _s0, _s1, _s2, s3 = opening(start(2))
    assert all(m.kind != "undo" for m in legal_moves(s3, 0))
    assert view_for(s3, 0)["turn"]["undo"] == [  # type: ignore[index]
        {"to": 2, "moves": 1},
        {"to": 1, "moves": 2},
        {"to": 0, "moves": 3},
    ]
    assert view_for(s3, 1)["turn"]["undo"] == []  # type: ignore[index]
    assert view_for(s3, None)["turn"]["undo"] == []  # type: ignore[index]
    assert "undo" in s3.tree  # the bookkeeping exists in the state, never in a view
    for seat in (None, 0, 1):
        text = json.dumps(view_for(s3, seat))
        assert '"back"' not in text and '"base"' not in text and '"drop"' not in text


def test_undo_across_a_donation_is_refused() -> None:
    s = visit(give(start(2), 0, wood=5, stone=5, cloth=5, grain=5), "cathedral")
    steps_before = len(undo_points(s, 0))
    assert steps_before == 2  # play_card, card_action (town_action)
    donation = next(m for m in legal(s, 0) if m["kind"] == "cathedral_donation")
    drawn = play(s, 0, donation)
    assert drawn.tree["rng"]["draws"] >= s.tree["rng"]["draws"]
    # the favor tokens were drawn (a secret revealed to seat 0): nothing before goes back
    assert undo_points(drawn, 0) == []
    expect_illegal(drawn, 0, {"kind": "undo", "to": 2}, "undo_across_secret")
    expect_illegal(drawn, 0, {"kind": "undo", "to": 0}, "undo_across_secret")
    token = drawn.tree["decision"]["tokens"][0]
    kept = play(drawn, 0, {"kind": "keep_favor", "token": token})
    assert undo_points(kept, 0) == []
    expect_illegal(kept, 0, {"kind": "undo", "to": 3}, "undo_across_secret")
    ended = play(kept, 0, {"kind": "end_visit"})
    assert undo_points(ended, 0) == [{"to": 4, "moves": 1}]
    same_position(undo(ended, 0, 4), kept)
    expect_illegal(ended, 0, {"kind": "undo", "to": 3}, "undo_across_secret")
    expect_illegal(ended, 0, {"kind": "undo", "to": 1}, "undo_across_secret")


def test_revealing_a_b_advisor_seals_the_turn() -> None:
    s = visit(give(start(2), 0, wood=9, stone=9, cloth=9, grain=9, gold=9), "castle")
    hire = next(m for m in legal(s, 0) if m["kind"] == "hire_advisor")
    tr = apply_move(s, 0, hire)
    assert any(e["type"] == "advisor_revealed" for e in tr.events)
    assert undo_points(tr.state, 0) == []
    expect_illegal(tr.state, 0, {"kind": "undo", "to": 0}, "undo_across_secret")


def test_hiring_a_craftsman_reveals_nothing_and_goes_back() -> None:
    # rig the holdings before the turn's moves: an undo goes back to states really played
    s = visit(give(start(2), 0, wood=9, stone=9, cloth=9, grain=9), "forest")
    hire = next(m for m in legal(s, 0) if m["kind"] == "hire_craftsman")
    after = play(s, 0, hire)
    assert undo_points(after, 0)[0] == {"to": 2, "moves": 1}
    same_position(undo(after, 0, 2), s)


def test_undo_after_another_seat_acted_is_refused() -> None:
    *_, s3 = opening(start(2))
    s4 = play(s3, 0, {"kind": "end_turn"})
    assert to_act(s4) == [1]
    expect_illegal(s4, 0, {"kind": "undo", "to": 0}, "not_your_turn")
    expect_illegal(s4, 1, {"kind": "undo", "to": 0}, "undo_nothing")
    assert undo_points(s4, 0) == [] and undo_points(s4, 1) == []
    s5 = play(hand(s4, 1, ["take_wood", "take_stone", "gold"]), 1, legal(s4, 1)[0])
    assert undo_points(s5, 1) == [{"to": 0, "moves": 1}]
    expect_illegal(s5, 0, {"kind": "undo", "to": 0}, "not_your_turn")


def test_end_turn_cannot_be_taken_back() -> None:
    *_, s3 = opening(start(1))
    s4 = play(s3, 0, {"kind": "end_turn"})
    assert to_act(s4) == [0]  # solo: the same seat starts its next turn
    expect_illegal(s4, 0, {"kind": "undo", "to": 0}, "undo_nothing")


def test_option_off_refuses_every_undo() -> None:
    s = new_game(1, {"players": 2, "start_player": 0, "undo": False})
    *_, s3 = opening(s)
    assert view_for(s3, 0)["options"]["undo"] is False
    assert view_for(s3, 0)["turn"]["undo"] == []  # type: ignore[index]
    assert undo_points(s3, 0) == []
    expect_illegal(s3, 0, {"kind": "undo", "to": 0}, "undo_not_allowed")
    expect_illegal(s3, 0, {"kind": "undo", "to": 2}, "undo_not_allowed")


def test_games_recorded_without_the_option_allow_undo() -> None:
    def drop(t: dict[str, Any]) -> None:
        del t["options"]["undo"]

    *_, s3 = opening(edit(start(2), drop))
    assert view_for(s3, 0)["options"]["undo"] is True
    assert undo_points(s3, 0)[0] == {"to": 2, "moves": 1}


@pytest.mark.parametrize(
    ("to", "code"),
    [(3, "undo_bad_target"), (7, "undo_bad_target"), (-1, "undo_bad_target")],
)
def test_bad_targets(to: int, code: str) -> None:
    *_, s3 = opening(start(2))
    expect_illegal(s3, 0, {"kind": "undo", "to": to}, code)


def test_undo_needs_an_integer_target_and_nothing_to_undo_is_refused() -> None:
    s0, s1, *_ = opening(start(2))
    expect_illegal(s1, 0, {"kind": "undo"}, "malformed_move")
    expect_illegal(s1, 0, {"kind": "undo", "to": "0"}, "malformed_move")
    expect_illegal(s1, 0, {"kind": "undo", "to": True}, "malformed_move")
    expect_illegal(s1, 0, {"kind": "undo", "to": 0, "moves": 1}, "malformed_move")
    expect_illegal(s0, 0, {"kind": "undo", "to": 0}, "undo_nothing")
    assert decode_move({"kind": "undo", "to": 0}).args == {"to": 0}


def test_undo_outside_the_turns_phase_is_refused() -> None:
    s = new_game(5, {"players": 2, "random_locations": True})
    assert s.phase == "setup"
    seat = to_act(s)[0]
    expect_illegal(s, seat, {"kind": "undo", "to": 0}, "undo_nothing")
    s = play(s, seat, legal(s, seat)[0])
    if s.phase == "setup" and seat in to_act(s):
        expect_illegal(s, seat, {"kind": "undo", "to": 0}, "undo_nothing")


def test_replay_of_a_record_with_undos_gives_the_same_state() -> None:
    record: list[dict[str, Any]] = []
    s = start(2)

    def go(seat: int, move: dict[str, Any]) -> None:
        nonlocal s
        s = apply_move(s, seat, move).state
        record.append({"seat": seat, "move": move})

    go(0, legal(s, 0)[0])
    go(0, {"kind": "undo", "to": 0})
    go(0, legal(s, 0)[-1])
    go(0, {"kind": "move", "councilor": "town"})
    go(0, {"kind": "undo", "to": 1})
    go(0, {"kind": "move", "councilor": "countryside"})
    go(0, {"kind": "end_turn"})
    assert replay(1, {"players": 2, "start_player": 0}, record) == s
    assert to_act(s) == [1]


def test_refused_undo_leaves_the_state_alone() -> None:
    *_, s3 = opening(start(2))
    before = encode_state(s3)
    with pytest.raises(IllegalMoveError):
        apply_move(s3, 0, {"kind": "undo", "to": 9})
    assert encode_state(s3) == before


def test_undo_event_is_public() -> None:
    *_, s3 = opening(start(2))
    from app.rules import events_for

    evs = events(s3, 0, {"kind": "undo", "to": 0})
    assert events_for(evs, 1) == [{"type": "moves_taken_back", "seat": 0, "count": 3}]
    assert events_for(evs, None) == evs


def test_the_undo_option_must_be_a_boolean() -> None:
    from app.rules import BadOptionsError

    with pytest.raises(BadOptionsError):
        new_game(1, {"players": 2, "undo": "yes"})
    assert new_game(1, {"players": 2}).tree["options"]["undo"] is True
