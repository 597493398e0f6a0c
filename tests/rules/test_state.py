"""The state copy used by apply_move: equal to the original and sharing nothing it may change."""

from __future__ import annotations

from typing import Any

from app.rules import apply_move, encode_state, legal_moves, new_game, to_act
from app.rules.copying import Draft, copy_for_seat, copy_tree

from .helpers import random_playout


def mutable_ids(value: Any, path: str, out: dict[int, str]) -> None:
    if isinstance(value, dict | list):
        out[id(value)] = path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            mutable_ids(v, f"{path}/{k}", out)


def check_copy(tree: dict[str, Any], whole: bool = False) -> None:
    """``copy_for_seat`` (``whole``: a ``Draft`` every key of which was read) shares nothing
    a move of the seat may change."""
    for seat in [None, *range(tree["players"])]:
        copy = copy_for_seat(tree, seat) if not whole else read_whole(tree, seat)
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


def read_whole(tree: dict[str, Any], seat: int | None) -> dict[str, Any]:
    draft = Draft(tree, seat)
    for key in tree:
        draft[key]  # the read copies the key
    out = draft.tree()
    assert type(out) is dict
    return out


def test_copy_shares_nothing_changeable() -> None:
    for players, opts in [(1, {}), (2, {"random_locations": True}), (4, {"full_selection": True})]:
        state = new_game(players, {"players": players, **opts})
        step = 0
        while to_act(state):
            if step % 23 == 0:
                check_copy(state.tree)
                check_copy(state.tree, whole=True)
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


def test_a_move_shares_with_its_source_every_key_it_never_read() -> None:
    """``apply_move`` copies a key of the state only when the move reads it (``Draft``): a
    key never read is the source's own object in the new state (which is a plain dict), so
    most moves leave the board's keys shared; a key read is the move's own copy."""
    board = ("huts", "display", "nobility", "markers", "b_stack", "event_deck")
    shared = dict.fromkeys(board, 0)
    state = new_game(7, {"players": 4})
    draft = Draft(state.tree, 0)
    assert all(dict.__getitem__(draft, k) is v for k, v in state.tree.items())
    assert draft["huts"] is not state.tree["huts"] and draft["huts"] == state.tree["huts"]
    assert draft["rondels"] is state.tree["rondels"]  # never changed after set-up
    moves = 0
    while to_act(state):
        seat = to_act(state)[0]
        moves_now = legal_moves(state, seat)
        after = apply_move(state, seat, moves_now[(moves * 5) % len(moves_now)]).state
        assert type(after.tree) is dict
        for key in board:
            shared[key] += after.tree[key] is state.tree[key]
        state = after
        moves += 1
    assert moves > 100
    for key in board:
        assert shared[key] >= moves * 0.8, (key, shared[key], moves)
