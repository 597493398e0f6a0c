"""The table service's typed answers: a lobby, a move's result, a render, a log line, the game,
a log page, a catch-up.

``TypedDict``s over the engine's own contracts (``rules.View``, ``rules.EncodedMove``,
``rules.EngineEvent``): the JSON the routes and the socket send, checked by mypy where it is
made. The response models (app/tables/schemas.py) and socket frames (app/realtime/frames.py)
describe the same shapes to clients.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from app import rules
from app.pace.schemas import ClockOut, PaceEventOut
from app.tables.options import TableOptionsDoc
from app.tables.schemas import GameSeat
from app.tables.status import TableStatus


class LobbySeatLine(TypedDict):
    seat: int
    taken: bool
    name: str | None
    bot_level: str | None
    host: bool
    you: bool
    present: NotRequired[bool]  # a socket of this seat's person is open now (app/presence)
    last_seen: NotRequired[str | None]


class LobbyAnswer(TypedDict):
    """A table as its lobby shows it to one profile (``LobbyOut``)."""

    id: str
    invite_code: str | None
    status: str
    seats: list[LobbySeatLine]
    seat_count: int
    options: TableOptionsDoc
    host: bool
    my_seat: int | None
    version: int
    outcome: rules.Outcome | None
    to_act: list[int]
    created_at: str | None
    name: str | None
    rematch_id: str | None
    clock: NotRequired[ClockOut | None]


class MoveAnswer(TypedDict):
    """A move's result (``MoveOut``; the socket's ``accepted``)."""

    version: int
    move_id: str
    events: list[rules.EngineEvent]
    duplicate: bool


class PlayerScoreLine(TypedDict):
    seat: int
    cp: int
    bp: int
    score: int


class VictoriaScoreLine(TypedDict):
    seat: None
    victoria: Literal[True]
    cp: int | None


ScoreLine = PlayerScoreLine | VictoriaScoreLine


class GameRender(TypedDict):
    """The game at a version for one seat (None: a spectator)."""

    version: int
    seat: int | None
    view: rules.View
    legal_moves: list[rules.EncodedMove]
    scores: list[ScoreLine]


class LogLineOut(TypedDict):
    """A move-log line redacted for one seat."""

    version: int
    seat: int
    move: rules.EncodedMove
    events: list[rules.EngineEvent]
    at: str | None


class GameAnswer(GameRender):
    """``GET /api/tables/{id}/game``: the render, the seats, the (newest) log and the clock."""

    status: TableStatus
    seats: list[GameSeat]
    log: list[LogLineOut]
    log_more: bool
    clock: ClockOut | None
    pace_log: list[PaceEventOut]


class LogPage(TypedDict):
    entries: list[LogLineOut]
    more: bool


class CatchUpBase(GameRender):
    """What every catch-up of a socket holds. ``holders`` (the profile on each seat when
    rendered) is never sent: the socket checks its viewer against it and leaves it out."""

    status: TableStatus
    seats: list[GameSeat]
    holders: dict[int, str | None]
    clock: ClockOut | None


class SnapshotAnswer(CatchUpBase):
    type: Literal["snapshot"]


class UpdateAnswer(CatchUpBase):
    """The moves after ``since`` (redacted for the seat), and the game after them."""

    type: Literal["update"]
    since: int
    moves: list[LogLineOut]


CatchUp = SnapshotAnswer | UpdateAnswer
