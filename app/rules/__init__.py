"""Crown of Emara rules engine: pure, deterministic, standard library only.

Public API: ``new_game``, ``to_act``, ``legal_moves``, ``apply_move``, ``outcome``, ``view_for``,
``events_for``, ``replay``, ``encode_move``/``decode_move``, ``encode_state``/``decode_state``
(``read_state``: a stored state to look at, not copied),
``undo_points`` (the points of the current turn a seat may take moves back to; the ``undo`` move),
``changes_between``/``summarize`` (what changed since a seat last looked; docs/view.md),
``explain_for`` (what each piece on the board is and what each legal move would give a seat).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .changes import Change, ViewMismatchError, changes_between
from .codec import decode_state, encode_state, read_state, state_blob
from .contracts import EncodedMove, EngineEvent, Outcome, View
from .explain import explain_for
from .explain_contracts import ElementNote, Explanation, MarkerChange, MoveEffect
from .moves import IllegalMoveError, Move, Transition, decode_move, encode_move
from .scoring import compute_outcome
from .setup import BadOptionsError, GameOptions, new_game
from .state import GameState
from .summary import LogEntry, PlayerSummary, SummaryItem, summarize
from .turn import apply_move, legal_moves, to_act
from .undo import UndoPoint, undo_points
from .view import events_for, view_for, views_for

__all__ = [
    "BadOptionsError",
    "Change",
    "ElementNote",
    "EncodedMove",
    "EngineEvent",
    "Explanation",
    "GameOptions",
    "GameState",
    "IllegalMoveError",
    "LogEntry",
    "MarkerChange",
    "Move",
    "MoveEffect",
    "Outcome",
    "PlayerSummary",
    "SummaryItem",
    "Transition",
    "UndoPoint",
    "View",
    "ViewMismatchError",
    "apply_move",
    "changes_between",
    "decode_move",
    "decode_state",
    "encode_move",
    "encode_state",
    "events_for",
    "explain_for",
    "legal_moves",
    "new_game",
    "outcome",
    "read_state",
    "replay",
    "state_blob",
    "summarize",
    "to_act",
    "undo_points",
    "view_for",
    "views_for",
]


def outcome(state: GameState) -> Outcome | None:
    """Final scores and ranks once the game is finished, else ``None``."""
    if state.phase != "finished":
        return None
    return compute_outcome(state.tree)


def replay(
    seed: int,
    options: Mapping[str, Any] | GameOptions | None,
    record: Iterable[Any],
) -> GameState:
    """Replay a move record: ``(seat, move)`` pairs or ``{"seat": .., "move": ..}`` dicts."""
    state = new_game(seed, options)
    for entry in record:
        if isinstance(entry, Mapping):
            seat, move = entry["seat"], entry["move"]
        else:
            seat, move = entry
        state = apply_move(state, seat, move).state
    return state
