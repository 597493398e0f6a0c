"""Shared helpers for the rules tests: rig a state, play moves, expect illegal moves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.rules import (
    GameState,
    IllegalMoveError,
    apply_move,
    decode_state,
    encode_move,
    encode_state,
    legal_moves,
    new_game,
    to_act,
)


def start(players: int = 2, seed: int = 1, **options: Any) -> GameState:
    options.setdefault("start_player", 0)
    return new_game(seed, {"players": players, **options})


def edit(state: GameState, fn: Callable[[dict[str, Any]], Any]) -> GameState:
    """The state with ``fn`` applied to its tree. Points a test writes onto a track by hand came
    from no source of the engine: they are booked as ``unrecorded``, so every player's points by
    source still sum to the tracks (docs/view.md)."""
    tree = encode_state(state)
    fn(tree)
    for p in tree["ps"]:
        points = p.get("points")
        if points is None:
            continue
        for track in ("cp", "bp"):
            per = points[track]
            diff = p[track] - sum(per.values())
            if diff:
                per["unrecorded"] = per.get("unrecorded", 0) + diff
                if not per["unrecorded"]:
                    del per["unrecorded"]
    return decode_state(tree)


def play(state: GameState, seat: int, move: dict[str, Any]) -> GameState:
    return apply_move(state, seat, move).state


def events(state: GameState, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    return apply_move(state, seat, move).events


def legal(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [encode_move(m) for m in legal_moves(state, seat)]


def kinds(state: GameState, seat: int) -> set[str]:
    return {m.kind for m in legal_moves(state, seat)}


def expect_illegal(state: GameState, seat: int, move: Any, code: str) -> None:
    before = encode_state(state)
    with pytest.raises(IllegalMoveError) as err:
        apply_move(state, seat, move)
    assert err.value.code == code, err.value
    assert encode_state(state) == before


def give(state: GameState, seat: int, **items: int) -> GameState:
    def fn(t: dict[str, Any]) -> None:
        p = t["ps"][seat]
        for key, n in items.items():
            if key in p["res"]:
                p["res"][key] = n
            elif key in p["goods"]:
                p["goods"][key] = n
            else:
                p[key] = n

    return edit(state, fn)


def clear(state: GameState, seat: int) -> GameState:
    """Empty a seat's resources and goods."""

    def fn(t: dict[str, Any]) -> None:
        p = t["ps"][seat]
        p["res"] = dict.fromkeys(p["res"], 0)
        p["goods"] = dict.fromkeys(p["goods"], 0)

    return edit(state, fn)


def hand(state: GameState, seat: int, cards: list[str]) -> GameState:
    def fn(t: dict[str, Any]) -> None:
        t["ps"][seat]["hand"] = list(cards)

    return edit(state, fn)


def advisors(state: GameState, seat: int, names: list[str]) -> GameState:
    def fn(t: dict[str, Any]) -> None:
        t["ps"][seat]["advisors"] = list(names)

    return edit(state, fn)


def set_event(state: GameState, event: str | None) -> GameState:
    def fn(t: dict[str, Any]) -> None:
        t["event"] = event

    return edit(state, fn)


def visit(state: GameState, location: str, seat: int | None = None) -> GameState:
    """Make ``seat`` (default: the seat to act) play a card and open a visit of ``location``.

    Town locations are visited with the town_action card, countryside ones by moving the
    councilor of that rondel 1 step with a card on slot 1.
    """
    seat = to_act(state)[0] if seat is None else seat
    tree = encode_state(state)
    if location in ("castle", "cathedral", "construction_site", "market"):
        tree["ps"][seat]["hand"] = ["town_action", "take_wood", "take_stone"]
        state = decode_state(tree)
        state = play(state, seat, {"kind": "play_card", "card": "town_action", "slot": 1})
        return play(state, seat, {"kind": "card_action", "location": location})
    key = next(k for k, r in tree["rondels"].items() if location in r)
    rondel = tree["rondels"][key]
    tree["councilors"][seat][key] = rondel[(rondel.index(location) - 1) % len(rondel)]
    tree["ps"][seat]["hand"] = ["take_ring", "take_wood", "take_stone"]
    state = decode_state(tree)
    state = play(state, seat, {"kind": "play_card", "card": "take_ring", "slot": 1})
    return play(state, seat, {"kind": "move", "councilor": key})


def player(state: GameState, seat: int) -> dict[str, Any]:
    p: dict[str, Any] = encode_state(state)["ps"][seat]
    return p


def random_playout(seed: int, options: dict[str, Any]) -> tuple[GameState, list[Any]]:
    import random

    rng = random.Random(seed)
    state = new_game(seed, options)
    record: list[Any] = []
    while to_act(state):
        seat = to_act(state)[0]
        moves = legal_moves(state, seat)
        move = moves[int(rng.random() * len(moves))]
        record.append((seat, move))
        state = apply_move(state, seat, move).state
    return state, record
