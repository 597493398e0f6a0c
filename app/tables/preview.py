"""The table as a visitor without a seat sees it before picking a name (its name, host, free
seats, what a newcomer can do there), and the one rule a name follows at a table: a name
already seated there is not taken again without saying so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from app.errors import NotFound
from app.tables import lobby_repository as lobby_repo
from app.tables import repository as repo
from app.tables.preview_schemas import PreviewSeat, TableDoor, TablePreviewOut
from app.tables.removals import refuse_removed
from app.tables.status import TableStatus
from app.tables.types import SeatLike, TableLike
from app.tables.visibility import _may_look, seats_and_names


def same_name(a: str | None, b: str | None) -> bool:
    """Two names a person would read as one ("bea", " Bea ")."""
    if a is None or b is None:
        return False
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def seat_of_name(rows: Sequence[Any], name: str | None) -> int | None:
    """The seat of a person called ``name`` at a table (``repository.lobby_seats``' rows)."""
    return next((x.seat for x in rows if x.profile_id and same_name(x.name, name)), None)


def _public(t: TableLike) -> bool:
    """A finished game whose players made its replay public: anyone may already see it."""
    return t.status == TableStatus.FINISHED and bool(t.options.get("public_replay", False))


def door_of(t: TableLike, free: int) -> TableDoor:
    if t.status == TableStatus.LOBBY:
        return TableDoor.OPEN if free else TableDoor.FULL
    if t.status == TableStatus.PLAYING:
        return TableDoor.RUNNING
    if t.status == TableStatus.FINISHED:
        return TableDoor.FINISHED
    return TableDoor.CLOSED


def preview(
    conn: Connection, profile_id: str | None, table_id: str, invite_code: str | None
) -> TablePreviewOut:
    """The preview of a table the caller may look at (a seat, the invite code, or a public
    finished game); else 404, a missed guess like every invite-checked read."""
    found = repo.lobby_table(conn, table_id)
    if found is None:
        raise NotFound("no such table")
    t, rows = found
    seats: list[SeatLike]
    seats, names = seats_and_names(rows)
    if profile_id is not None and not any(x.profile_id == profile_id for x in seats):
        refuse_removed(conn, t.id, profile_id)
    if not (_may_look(t, seats, profile_id, invite_code) or _public(t)):
        raise NotFound("no such table")
    free = 0
    if t.status == TableStatus.LOBBY:
        taken = {x.seat for x in rows} | lobby_repo.reserved_seats(conn, t.id)
        free = len(set(range(t.seat_count)) - taken)
    by_seat = {x.seat: x for x in rows}
    return TablePreviewOut(
        id=t.id,
        name=t.name,
        host_name=names.get(t.host_profile_id),
        status=t.status,
        door=door_of(t, free),
        seat_count=t.seat_count,
        free_seats=free,
        spectators=bool(t.options.get("spectators", True)),
        seats=[
            PreviewSeat(
                seat=n,
                name=by_seat[n].name if n in by_seat and by_seat[n].profile_id else None,
                bot_level=by_seat[n].bot_level if n in by_seat else None,
                host=n in by_seat and by_seat[n].profile_id == t.host_profile_id,
            )
            for n in range(t.seat_count)
        ],
    )
