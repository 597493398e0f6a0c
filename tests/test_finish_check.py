"""The suites' finish check (tests/finish_check.py) is wired in: a game finishing in a test with
points by source that do not add up is caught, and a sound one is counted and passes."""

from __future__ import annotations

import random
from typing import Any

from app.rules import (
    apply_move,
    decode_state,
    encode_move,
    encode_state,
    legal_moves,
    new_game,
    to_act,
)
from tests.finish_check import CHECK


def last_position(seed: int, players: int) -> tuple[Any, int, dict[str, Any]]:
    """The position before the finishing move of a seeded random game, its seat and move."""
    rng = random.Random(seed)
    state = new_game(seed, {"players": players})
    while True:
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        move = encode_move(legal[int(rng.random() * len(legal))])
        after = apply_move(state, seat, move).state
        if not to_act(after):
            return state, seat, move
        state = after


def test_a_finish_that_does_not_add_up_is_caught() -> None:
    state, seat, move = last_position(3, 2)
    tree = encode_state(state)
    tree["ps"][1]["points"]["cp"]["titles"] = tree["ps"][1]["points"]["cp"].get("titles", 0) + 1
    broken = decode_state(tree)
    finishes, seen = CHECK.finishes, len(CHECK.failures)
    apply_move(broken, seat, move)
    assert CHECK.finishes == finishes + 1
    caught = CHECK.failures[seen:]
    del CHECK.failures[seen:]  # this test's own failure is the point; the fixture must not see it
    assert caught and all("seat 1" in x for x in caught)


def test_a_sound_finish_is_counted_and_passes() -> None:
    state, seat, move = last_position(4, 1)
    finishes, seen = CHECK.finishes, len(CHECK.failures)
    apply_move(state, seat, move)
    assert CHECK.finishes == finishes + 1
    assert CHECK.failures[seen:] == []
