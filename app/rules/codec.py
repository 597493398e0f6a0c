"""JSON form of a game state (server-side only: it holds every secret)."""

from __future__ import annotations

from typing import Any

from .copying import copy_tree
from .state import GameState, St

_REQUIRED = (
    "schema",
    "rng",
    "players",
    "phase",
    "round",
    "statue",
    "options",
    "ps",
    "rondels",
    "councilors",
    "markers",
    "huts",
    "favor",
    "display",
    "b_stack",
    "nobility",
    "event_deck",
    "turn",
    "decision",
    "event",
    "victoria",
    "turn_index",
    "boxed_advisors",
)


def encode_state(state: GameState) -> dict[str, Any]:
    """A JSON-serialisable dict holding the whole state; ``decode_state`` reverses it."""
    return copy_tree(state.tree)


def state_blob(state: GameState) -> dict[str, Any]:
    """The state's own JSON-ready tree, not a copy: to hand straight to a serialiser (the server
    stores it), never to change. ``encode_state`` is the copy that may be changed."""
    return state.tree


def decode_state(blob: dict[str, Any]) -> GameState:
    return GameState(copy_tree(_checked(blob)))


def read_state(blob: dict[str, Any]) -> GameState:
    """``decode_state`` without the copy: for a blob the caller holds alone and never changes
    (a row just read, to ask whose turn it is or how the game ended)."""
    return GameState(_checked(blob))


def _checked(blob: dict[str, Any]) -> St:
    if not isinstance(blob, dict):
        raise ValueError("a state must be a dict")
    missing = [k for k in _REQUIRED if k not in blob]
    if missing:
        raise ValueError(f"not a game state: missing {missing}")
    return blob
