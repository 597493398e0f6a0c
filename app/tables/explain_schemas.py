"""The HTTP contract of ``GET /api/tables/{id}/explain``: the engine's explanation (the typed
dicts of app/rules/explain_contracts.py) as response models."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class ElementNoteOut(BaseModel):
    """What one board piece is: a catalogue key (``explain.…``) and its placeholder values; an
    optional second key (the printed text of a card, advisor or event); the rules page anchor;
    the indices in ``moves`` of the legal moves that involve it."""

    key: str
    params: dict[str, int | str | dict[str, int]]
    detail: str | None
    rule: str
    moves: list[int]


class MarkerChangeOut(BaseModel):
    marker: str
    before: int
    after: int
    removed: bool


class MoveEffectOut(BaseModel):
    """What one legal move of the caller would change for the caller now. ``known`` false: it
    reveals the next event, so nothing is promised; ``blind_draws`` names hidden draws, never
    what they bring."""

    move: dict[str, Any]
    known: bool
    gains: dict[str, int]
    markers: list[MarkerChangeOut]
    blind_draws: list[str]
    ends_turn: bool
    ends_round: bool


class ExplainOut(BaseModel):
    """Every piece on the board explained for the caller's seat (a spectator: seat null, the
    public notes and no moves), at table version ``version``."""

    version: int
    seat: int | None
    elements: dict[str, ElementNoteOut]
    moves: list[MoveEffectOut]
