"""The JSON forms of a record and of a replay, as the records service hands them on.

A record that has passed ``GameRecord`` (or was made from a finished table and checked by it)
travels as ``RecordDoc``; a replay page as ``ReplayDoc`` and a position as ``PositionDoc``,
the shapes of ``ReplayOut`` and ``PositionOut`` (app/records/schemas.py), which check them once
before they are encoded. A record's raw body before validation stays an open JSON object.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from app import rules
from app.rules.contracts import DecisionView
from app.tables.answers import ScoreLine

# A JSON object of a shape not known yet: a request's body before it is validated.
JSONObject = dict[str, Any]


class RecordOptionsDoc(TypedDict):
    players: int
    start_player: int
    building_start: int | None
    random_locations: bool
    full_selection: bool
    undo: bool


class RecordPlayerDoc(TypedDict):
    seat: int
    name: str | None
    bot_level: str | None


class RecordMoveDoc(TypedDict):
    seat: int
    move: rules.EncodedMove
    at: str | None


class RecordDoc(TypedDict):
    """A checked record (``GameRecord``'s JSON form)."""

    format: str
    format_version: int
    rules_version: str
    options: RecordOptionsDoc
    players: list[RecordPlayerDoc]
    seed: int
    moves: list[RecordMoveDoc]
    outcome: rules.Outcome
    name: str | None
    finished_at: str | None


class LogEntryDoc(TypedDict):
    """``ReplayLogEntry``: the move that led to ``position``, as the table's log shows it."""

    position: int
    seat: int
    move: rules.EncodedMove
    events: list[rules.EngineEvent]
    at: str | None
    summary: list[rules.PlayerSummary]


class PageDoc(TypedDict):
    """One page of a replay's positions (``views.page``)."""

    offset: int
    limit: int
    next_offset: int | None
    log: list[LogEntryDoc]
    tracks: list[list[ScoreLine]]


class ReplayDoc(PageDoc):
    """``ReplayOut``: a replay's meta data and one page of it."""

    replay_id: str
    source: Literal["table", "import"]
    table_id: str | None
    name: str | None
    options: RecordOptionsDoc
    players: list[RecordPlayerDoc]
    outcome: rules.Outcome
    positions: int
    eyes: str
    rules_version: str
    finished_at: str | None


class OpenHandDoc(TypedDict):
    seat: int
    hand: list[str]
    decision: DecisionView | None


class PositionPart(TypedDict):
    """The game at one position (``views.position``)."""

    position: int
    positions: int
    view: rules.View
    hands: list[OpenHandDoc] | None
    scores: list[ScoreLine]
    move: LogEntryDoc | None


class PositionDoc(PositionPart):
    """``PositionOut``: a position with the replay and the eyes it was asked with."""

    replay_id: str
    eyes: str
