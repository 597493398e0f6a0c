"""What a visitor without a seat learns of a table before picking a name: the answer of
``GET /api/tables/{id}/preview`` (no invite code, no profile ids, no presence)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel

from app.tables.status import TableStatus


class TableDoor(StrEnum):
    """What a newcomer can do at a table: take a free seat (``open``), or only watch — every
    seat taken (``full``), the game dealt (``running``), over (``finished``) — or nothing, the
    table ended before its start (``closed``)."""

    OPEN = "open"
    FULL = "full"
    RUNNING = "running"
    FINISHED = "finished"
    CLOSED = "closed"


class PreviewSeat(BaseModel):
    seat: int
    # The seated person's name (kept when a bot plays for them); null: an empty seat, or a bot
    # of the table's own.
    name: str | None
    bot_level: str | None
    host: bool


class TablePreviewOut(BaseModel):
    id: str
    name: str | None
    host_name: str | None
    status: TableStatus
    door: TableDoor
    seat_count: int
    # Seats nobody holds and nobody is invited to (0 unless the table waits for players).
    free_seats: int
    # Whether someone without a seat may watch the game.
    spectators: bool
    seats: list[PreviewSeat]
