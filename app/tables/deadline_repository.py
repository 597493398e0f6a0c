"""The SQL of the move's deadline: the tables whose deadline passed, a deadline stored and
claimed, a seat handed to a bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    select,
    update,
)
from sqlalchemy.orm import Session

from app.db.models import Seat
from app.tables.repository import TABLE
from app.tables.status import TableStatus


def expired_deadlines(conn: Connection, now: float, batch: int, skip_locked: bool) -> Sequence[Any]:
    """The playing tables whose stored deadline has passed, earliest first (up to ``batch``).
    ``skip_locked`` (Postgres) claims the rows: another sweeper skips them."""
    query = (
        select(
            TABLE.c.id,
            TABLE.c.deadline,
            TABLE.c.clock,
            TABLE.c.version,
            TABLE.c.options,
        )
        .where(TABLE.c.status == TableStatus.PLAYING, TABLE.c.deadline <= now)
        .order_by(TABLE.c.deadline)
        .limit(batch)
    )
    if skip_locked:
        query = query.with_for_update(skip_locked=True)
    return conn.execute(query).all()


def store_deadline(conn: Connection, table_id: str, seen: Any, deadline: float | None) -> None:
    """Store the table's right deadline, unless it changed since it was read (``seen``)."""
    conn.execute(
        update(TABLE)
        .where(TABLE.c.id == table_id, TABLE.c.deadline == seen)
        .values(deadline=deadline)
    )


def claim_deadline(
    conn: Connection, table_id: str, seen: Any, clock: Any, deadline: float | None
) -> bool:
    """Claim an expired deadline: the clock after the time-out, the next deadline and a new
    ``seats_version``, only while the table plays and its deadline is still ``seen`` (False:
    another process or a move got there first)."""
    claimed = conn.execute(
        update(TABLE)
        .where(
            TABLE.c.id == table_id,
            TABLE.c.deadline == seen,
            TABLE.c.status == TableStatus.PLAYING,
        )
        .values(
            clock=clock,
            deadline=deadline,
            seats_version=TABLE.c.seats_version + 1,
        )
    )
    return int(claimed.rowcount) == 1


def hand_seat_to_bot(conn: Connection | Session, table_id: str, seat: int, level: str) -> bool:
    """The seat a person holds goes to a bot of ``level``, inside the caller's transaction
    (the caller bumps ``seats_version``). False when no person holds it any more."""
    done = conn.execute(
        update(Seat)
        .where(
            Seat.table_id == table_id,
            Seat.seat == seat,
            Seat.bot_level.is_(None),
            Seat.profile_id.is_not(None),
        )
        .values(bot_level=level)
    )
    return int(done.rowcount) == 1  # type: ignore[attr-defined]
