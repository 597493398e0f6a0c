"""The table's pace log: seats that timed out, the clock paused and resumed (not moves: the move
log replays from the seed and holds only moves)."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from sqlalchemy import Connection, Table, insert, select
from sqlalchemy.orm import Session

from app.db.models import TableEvent
from app.isotime import iso
from app.pace.schemas import PaceEventOut

EVENT: Table = TableEvent.__table__  # type: ignore[assignment]


class PaceEventKind:
    SEAT_TIMED_OUT = "seat_timed_out"
    CLOCK_PAUSED = "clock_paused"
    CLOCK_RESUMED = "clock_resumed"


class PaceEventParams(TypedDict, total=False):
    """What an event says besides its kind and seat: ``seat_timed_out``, the seat, who held it
    (``name``) and the ``level`` of the bot that plays it now; ``clock_paused`` and
    ``clock_resumed``, ``by`` (the host's name)."""

    seat: int
    name: str | None
    level: str
    by: str | None


def add_event(
    conn: Connection | Session,
    table_id: str,
    kind: str,
    seat: int | None,
    params: PaceEventParams,
    at: datetime,
) -> None:
    conn.execute(
        insert(EVENT).values(table_id=table_id, kind=kind, seat=seat, params=params, at=at)
    )


def pace_log(conn: Connection | Session, table_id: str, limit: int = 50) -> list[PaceEventOut]:
    """The table's latest pace events, oldest first."""
    rows = conn.execute(
        select(EVENT.c.kind, EVENT.c.seat, EVENT.c.params, EVENT.c.at)
        .where(EVENT.c.table_id == table_id)
        .order_by(EVENT.c.id.desc())
        .limit(limit)
    ).all()
    return [
        {"kind": kind, "seat": seat, "params": params, "at": iso(at)}
        for kind, seat, params, at in reversed(rows)
    ]
