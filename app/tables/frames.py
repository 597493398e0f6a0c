"""The frames the tables feature sends on the table socket: the lobby, the snapshot of a game for
one seat and the update after moves. The transport (app/realtime/frames.py) owns the envelope
(``Sent``, ``trusted``, ``wire``) and the frames of its own; docs/frames.schema.json lists them all
(app/frames_schema.py)."""

from __future__ import annotations

from typing import Any, Literal

from app.engine_types import EncodedMove, View
from app.pace.schemas import ClockOut
from app.realtime.frames import Frame, Sent, trusted, trusted_wire
from app.tables.answers import CatchUp
from app.tables.schemas import GameSeat, LobbyOut, LogEntry, PlayerScore, VictoriaScore
from app.tables.status import TableStatus


class Lobby(Sent):
    type: Literal["lobby"] = "lobby"
    table: LobbyOut


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


class PatchOperation(Frame):
    """One RFC 6902 operation (only these three are sent)."""

    op: Literal["add", "remove", "replace"]
    path: str
    value: Any = None  # absent for "remove"


class Delta(Sent):
    """The moves since ``since`` and what they changed in the seat's game, to a socket whose
    hello asked for deltas: ``patch`` turns the game as the socket had it at ``since`` (view,
    legal_moves, scores, status, seats, clock, as its last snapshot, update or delta left them)
    into the game at ``version``. ``digest``, on some versions: the CRC-32 of the canonical view
    and legal moves after the patch (docs/protocol.md, "Deltas")."""

    type: Literal["delta"] = "delta"
    version: int
    seat: int | None
    since: int
    moves: list[LogEntry]
    patch: list[PatchOperation]
    digest: str | None = None


def game_frame(frame: CatchUp) -> Snapshot | Update:
    """The table service's catch-up (a render it made: trusted, not walked again) as its frame,
    without its ``holders``."""
    fields = {k: v for k, v in frame.items() if k not in ("type", "holders")}
    if frame["type"] == "snapshot":
        return trusted(Snapshot, fields)
    return trusted(Update, fields)


def game_wire(frame: CatchUp) -> str:
    """``wire(game_frame(frame))``, encoded without making the model."""
    fields = {k: v for k, v in frame.items() if k not in ("type", "holders")}
    return trusted_wire(Snapshot if frame["type"] == "snapshot" else Update, fields)
