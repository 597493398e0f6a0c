"""The frames the tables feature sends on the table socket: the lobby, the snapshot of a game for
one seat and the update after moves. The transport (app/realtime/frames.py) owns the envelope
(``Sent``, ``trusted``, ``wire``) and the frames of its own; docs/frames.schema.json lists them all
(app/frames_schema.py)."""

from __future__ import annotations

from typing import Any, Literal

from app.engine_types import EncodedMove, Outcome, View
from app.pace.schemas import ClockOut
from app.realtime.frames import Frame, Sent, trusted
from app.tables.answers import CatchUp
from app.tables.schemas import GameSeat, LobbySeat, LogEntry, PlayerScore, VictoriaScore
from app.tables.status import TableStatus


class LobbyTable(Frame):
    """A table as its lobby shows it (``GET /api/tables/{id}``'s fields, and more)."""

    id: str
    invite_code: str | None  # only to its seats
    status: TableStatus
    seats: list[LobbySeat]
    seat_count: int
    options: dict[str, Any]
    host: bool
    my_seat: int | None
    version: int
    outcome: Outcome | None
    to_act: list[int]  # whose move it is now (empty unless the game runs)
    created_at: str | None
    name: str | None
    rematch_id: str | None
    clock: ClockOut | None


class Lobby(Sent):
    type: Literal["lobby"] = "lobby"
    table: LobbyTable


class Snapshot(Sent):
    """The whole game for the socket's seat (None: a spectator)."""

    type: Literal["snapshot"] = "snapshot"
    version: int
    seat: int | None
    view: View
    legal_moves: list[EncodedMove]
    scores: list[PlayerScore | VictoriaScore]
    status: TableStatus
    seats: list[GameSeat]
    clock: ClockOut | None


class Update(Sent):
    """The moves since ``since`` (redacted for the seat), and the game after them."""

    type: Literal["update"] = "update"
    version: int
    seat: int | None
    view: View
    legal_moves: list[EncodedMove]
    scores: list[PlayerScore | VictoriaScore]
    status: TableStatus
    seats: list[GameSeat]
    clock: ClockOut | None
    since: int
    moves: list[LogEntry]


def game_frame(frame: CatchUp) -> Snapshot | Update:
    """The table service's catch-up (a render it made: trusted, not walked again) as its frame,
    without its ``holders``."""
    fields = {k: v for k, v in frame.items() if k not in ("type", "holders")}
    if frame["type"] == "snapshot":
        return trusted(Snapshot, fields)
    return trusted(Update, fields)
