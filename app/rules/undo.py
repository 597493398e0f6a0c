"""Taking back moves within one's own turn.

The seat whose turn it is may take back the moves of the current turn, back to any earlier point
of that turn, as long as nothing has been drawn or revealed since that point. A move *seals* the
turn so far when the RNG draw counter moves (a reshuffle), when it reveals anything (favor tokens
drawn at a donation, the kept favor token, a B advisor turned up, cards drawn, an event) or when it
leaves a decision pending: the moves before it can no longer be taken back, so a redo can never
draw or learn differently.

Bookkeeping: the state tree holds, under ``"undo"`` and only while the current turn has a point to
go back to, ``{"base": b, "back": delta | None, "moves": [wire moves]}``. ``b`` is the number of
the turn's moves that are sealed; the *anchor* is the state tree (without ``"undo"``) right after
the last sealing point, and ``moves`` the turn's moves since then. ``back`` stores the anchor as
its difference from the current state (``{"keys": {key: anchor value}, "ps": {"<seat>": anchor
record}, "drop": [keys the anchor lacks]}``), about a quarter of a whole tree. Every move of a
turn is free of randomness once sealed points are excluded, so replaying ``moves[:k]`` from the
anchor gives back exactly the state after ``b + k`` moves of the turn, bookkeeping included. The
stored values are shared with earlier states, which are never changed. Views never show the
bookkeeping: they carry ``turn.undo`` (see ``undo_points``) for the seat whose turn it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from .moves import IllegalMoveError, Move
from .state import GameState, St

UNDO_KEY = "undo"

# Events that show something that was hidden before the move.
REVEALING_EVENTS: frozenset[str] = frozenset(
    {
        "favor_drawn",
        "favor_kept",
        "favor_discarded",
        "favor_pile_reshuffled",
        "cards_drawn",
        "deck_reshuffled",
        "event_revealed",
        "advisor_revealed",
        "turn_started",
        "game_finished",
    }
)


class UndoPoint(TypedDict):
    """One point of the current turn a seat may go back to."""

    to: int  # the number of this turn's moves kept (the in-turn step index)
    moves: int  # how many moves an undo to this point takes back


def undo_allowed(st: St) -> bool:
    """The engine option ``undo`` (games recorded before the option existed allow undo)."""
    return bool(st["options"].get("undo", True))


def _window(st: St) -> tuple[int, St | None, list[dict[str, Any]]]:
    """The sealed move count, the anchor (rebuilt from ``st`` and its delta) and the moves."""
    bk = st.get(UNDO_KEY)
    if bk is None:
        return 0, None, []
    back = bk["back"]
    return bk["base"], None if back is None else _anchor(st, back), bk["moves"]


def _anchor(st: St, back: St) -> St:
    tree = {k: v for k, v in st.items() if k != UNDO_KEY and k not in back["drop"]}
    tree.update(back["keys"])
    if back["ps"]:
        ps = list(tree["ps"])
        for seat, record in back["ps"].items():
            ps[int(seat)] = record
        tree["ps"] = ps
    return tree


_MISSING = object()


def _delta(anchor: St, st: St) -> St:
    """What turns ``st`` (without its bookkeeping) back into ``anchor``."""
    keys: St = {}
    for k, v in anchor.items():
        if k != "ps":
            now = st.get(k, _MISSING)
            if now is not v and now != v:
                keys[k] = v
    ps: St = {}
    now_ps = st["ps"]
    for i, p in enumerate(anchor["ps"]):
        if now_ps[i] is not p and now_ps[i] != p:
            ps[str(i)] = p
    drop = [k for k in st if k not in anchor and k != UNDO_KEY]
    return {"keys": keys, "ps": ps, "drop": drop}


def _bookkeeping(base: int, anchor: St | None, st: St, moves: list[dict[str, Any]]) -> St | None:
    """The bookkeeping of ``st`` for a window; ``None`` (no key) before the turn's first move."""
    if base == 0 and not moves:
        return None
    back = None if anchor is None else _delta(anchor, st)
    return {"base": base, "back": back, "moves": moves}


def _in_own_turn(st: St, seat: int) -> bool:
    turn = st["turn"]
    return st["phase"] == "turns" and turn is not None and turn["seat"] == seat


def note_move(
    src: St, st: St, seat: int, move: Mapping[str, Any], events: list[dict[str, Any]]
) -> None:
    """Update the bookkeeping of ``st``, the state after ``seat`` made ``move`` from ``src``."""
    st.pop(UNDO_KEY, None)
    if not undo_allowed(st) or not _in_own_turn(st, seat) or not _in_own_turn(src, seat):
        return
    if (st["round"], st["turn_index"]) != (src["round"], src["turn_index"]):
        return
    base, anchor, moves = _window(src)
    sealed = (
        st["rng"]["draws"] != src["rng"]["draws"]
        or st["decision"] is not None
        or any(ev["type"] in REVEALING_EVENTS or "private" in ev for ev in events)
    )
    if sealed:
        bk = _bookkeeping(base + len(moves) + 1, None, st, [])
    else:
        if anchor is None:
            anchor = {k: v for k, v in src.items() if k != UNDO_KEY}
        bk = _bookkeeping(base, anchor, st, [*moves, dict(move)])
    if bk is not None:
        st[UNDO_KEY] = bk


def points(st: St, seat: int | None) -> list[UndoPoint]:
    """The points ``seat`` may go back to now, nearest first (empty for other seats)."""
    if seat is None or not undo_allowed(st) or not _in_own_turn(st, seat):
        return []
    bk = st.get(UNDO_KEY)
    if bk is None:
        return []
    base: int = bk["base"]
    n = len(bk["moves"])
    return [{"to": base + k, "moves": n - k} for k in range(n - 1, -1, -1)]


def undo_points(state: GameState, seat: int | None) -> list[UndoPoint]:
    """How far back ``seat`` may go in its current turn: each point's target and move count."""
    return points(state.tree, seat)


Apply = Callable[[GameState, int, Mapping[str, Any]], GameState]


def take_back(src: St, seat: int, move: Move, apply: Apply) -> tuple[GameState, int]:
    """The state at the undo target of ``move`` and the number of moves taken back.

    Raises ``undo_not_allowed``, ``undo_nothing``, ``undo_bad_target`` or
    ``undo_across_secret`` (typed ``IllegalMoveError``) and then changes nothing.
    """
    if not undo_allowed(src):
        raise IllegalMoveError("undo_not_allowed", "this table does not allow taking moves back")
    if not _in_own_turn(src, seat):
        raise IllegalMoveError("undo_nothing", "only moves of your own current turn go back")
    base, anchor, moves = _window(src)
    step = base + len(moves)
    if step == 0:
        raise IllegalMoveError("undo_nothing", "no move of this turn to take back")
    to = move.args["to"]
    if not 0 <= to < step:
        raise IllegalMoveError(
            "undo_bad_target", f"'to' must be a point of this turn before now (0..{step - 1})"
        )
    if to < base or anchor is None:
        earliest = f"go back to {base} at the earliest" if moves else "no move can go back now"
        raise IllegalMoveError(
            "undo_across_secret",
            f"something was drawn or revealed after move {base} of this turn: {earliest}",
        )
    tree: St = dict(anchor)
    bk = _bookkeeping(base, None, tree, [])
    if bk is not None:
        tree[UNDO_KEY] = bk
    state = GameState(tree)
    for again in moves[: to - base]:
        state = apply(state, seat, again)
    return state, step - to
