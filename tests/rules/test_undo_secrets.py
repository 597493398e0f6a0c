"""An undo never makes a secret visible: the secret canary over undo games, at engine level.

For every seat, after every move or undo, nothing of another seat's hand, any deck order, the
favor pile and discards, the boxed and stacked advisors, the event deck order, the seed or the
RNG state (nor the undo bookkeeping) appears in that seat's view or in the events it is sent.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.rules import (
    GameState,
    apply_move,
    encode_move,
    encode_state,
    events_for,
    legal_moves,
    new_game,
    to_act,
    undo_points,
    view_for,
)

SEED = 982_451_653  # distinctive digits: any appearance in a view is a leak
BANNED_KEYS = {"seed", "rng", "draws", "back", "drop", "deck", "boxed_advisors"}
BANNED_LISTS = {"deck", "pile", "discard", "b_stack", "event_deck", "hands"}


def dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def play_with_undos(options: dict[str, Any], rate: float) -> list[tuple[GameState, list[Any]]]:
    """Every state of a random game with random undos, each with the events that led to it."""
    rng = random.Random(SEED)
    state = new_game(SEED, options)
    out: list[tuple[GameState, list[Any]]] = [(state, [])]
    undos = 0
    while to_act(state):
        seat = to_act(state)[0]
        points = undo_points(state, seat)
        if points and undos < 400 and rng.random() < rate:
            move: dict[str, Any] = {"kind": "undo", "to": rng.choice(points)["to"]}
            undos += 1
        else:
            move = encode_move(rng.choice(legal_moves(state, seat)))
        tr = apply_move(state, seat, move)
        state = tr.state
        out.append((state, tr.events))
    assert undos > 10
    return out


def secrets(trees: list[dict[str, Any]], seat: int, public: list[str]) -> set[str]:
    forbidden: set[str] = set()
    own: set[str] = set()
    for tree in trees:
        for n, p in enumerate(tree["ps"]):
            if n == seat:
                own.add(dump(p["hand"]))
            elif len(p["hand"]) >= 2:
                forbidden.add(dump(p["hand"]))
            if len(p["deck"]) >= 2:
                forbidden.add(dump(p["deck"]))
        for seq in (
            tree["favor"]["pile"],
            tree["favor"]["discard"],
            tree["boxed_advisors"],
            tree["b_stack"],
            tree["event_deck"],
        ):
            if len(seq) >= 2:
                forbidden.add(dump(seq))
    # a sequence secret once and public later (a display refilled in stack order) is no leak
    return {s for s in forbidden - own if not any(s in text for text in public)}


def check(seat: int, received: Any, forbidden: set[str]) -> None:
    text = dump(received)
    assert str(SEED) not in text, "the seed left the engine"

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                assert key not in BANNED_KEYS, f"secret key {key!r} at {path}"
                if isinstance(value, list | dict):
                    assert key not in BANNED_LISTS, f"secret {key!r} at {path}"
                if key == "hand":
                    assert path == "$.me", f"a hand outside 'me' at {path}"
                if key == "private":
                    assert value == seat, f"another seat's private event at {path}"
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]")

    walk(received, "$")
    for secret in forbidden:
        assert secret not in text, f"a secret sequence was sent: {secret}"


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3, "full_selection": True},
        {"players": 4, "random_locations": True},
    ],
    ids=["two", "three_full_selection", "four_random_locations"],
)
def test_no_secret_reaches_any_seat_in_games_with_undos(options: dict[str, Any]) -> None:
    steps = play_with_undos(options, 0.25)
    trees = [encode_state(state) for state, _ in steps]
    public = [dump(view_for(state, None)) for state, _ in steps]
    players = options["players"]
    for seat in range(players):
        forbidden = secrets(trees, seat, public)
        assert forbidden, "the canary needs secrets to look for"
        for state, evs in steps:
            check(seat, view_for(state, seat), forbidden)
            check(seat, events_for(evs, seat), forbidden)
    spectator = secrets(trees, -1, public)
    for state, evs in steps:
        check(-1, view_for(state, None), spectator)
        check(-1, events_for(evs, None), spectator)


def test_the_canary_would_catch_a_leak() -> None:
    steps = play_with_undos({"players": 2}, 0.25)
    trees = [encode_state(state) for state, _ in steps]
    public = [dump(view_for(state, None)) for state, _ in steps]
    forbidden = secrets(trees, 0, public)
    other_hand = next(t["ps"][1]["hand"] for t in trees if len(t["ps"][1]["hand"]) >= 2)
    with pytest.raises(AssertionError):
        check(0, {"note": other_hand}, forbidden)
    with pytest.raises(AssertionError):
        check(0, {"undo": {"back": {}}}, forbidden)
    with pytest.raises(AssertionError):
        check(0, {"x": SEED}, forbidden)
