"""The state copy used by apply_move: equal to the original and sharing nothing it may change."""

from __future__ import annotations

from typing import Any

from app.rules import apply_move, encode_state, legal_moves, new_game, to_act
from app.rules.state import copy_for_seat, copy_tree

from .helpers import random_playout


def mutable_ids(value: Any, path: str, out: dict[int, str]) -> None:
    if isinstance(value, dict | list):
        out[id(value)] = path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            mutable_ids(v, f"{path}/{k}", out)


def check_copy(tree: dict[str, Any]) -> None:
    for seat in [None, *range(tree["players"])]:
        copy = copy_for_seat(tree, seat)
        assert copy == tree and list(copy) == list(tree)
        original: dict[int, str] = {}
        mutable_ids(tree, "", original)
        copied: dict[int, str] = {}
        mutable_ids(copy, "", copied)
        shared = {original[i] for i in set(original) & set(copied)}
        for path in shared:
            top = path.split("/")[1]
            if top in ("rondels", "options", "undo"):  # undo bookkeeping: replaced, never changed
                continue
            assert top == "ps" and seat is not None, path
            assert path.split("/")[2] != str(seat), path


def test_copy_shares_nothing_changeable() -> None:
    for players, opts in [(1, {}), (2, {"random_locations": True}), (4, {"full_selection": True})]:
        state = new_game(players, {"players": players, **opts})
        step = 0
        while to_act(state):
            if step % 23 == 0:
                check_copy(state.tree)
            seat = to_act(state)[0]
            moves = legal_moves(state, seat)
            state = apply_move(state, seat, moves[(step * 7) % len(moves)]).state
            step += 1
        check_copy(state.tree)
        assert copy_tree(state.tree) == state.tree


def test_apply_never_changes_the_input_through_shared_parts() -> None:
    final, record = random_playout(12, {"players": 3})
    state = new_game(12, {"players": 3})
    for i, (seat, move) in enumerate(record):
        if i % 11 == 0:
            before = encode_state(state)
            for m in legal_moves(state, seat):
                apply_move(state, seat, m)
            assert encode_state(state) == before
        state = apply_move(state, seat, move).state
    assert state == final
