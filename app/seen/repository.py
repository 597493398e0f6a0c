"""The SQL of "since you looked": the last version each seat's person saw (``seat``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.db.models import GameTable, MoveRecord, Seat, SeenAt


def game_head(s: Session, table_id: str) -> Any:
    """status, version, seed, engine_options, state of a table (None if there is none)."""
    return s.execute(
        select(
            GameTable.status,
            GameTable.version,
            GameTable.seed,
            GameTable.engine_options,
            GameTable.state,
        ).where(GameTable.id == table_id)
    ).first()


def table_version(s: Session, table_id: str) -> Any:
    """version of a table, and whether its game has started (None if there is no table)."""
    return s.execute(
        select(GameTable.version, GameTable.seed.is_not(None).label("started")).where(
            GameTable.id == table_id
        )
    ).first()


def last_seen(s: Session, table_id: str, seat: int) -> int:
    """The last version the seat's person saw (0 if none is recorded)."""
    v = s.scalar(select(Seat.last_seen_version).where(Seat.table_id == table_id, Seat.seat == seat))
    return int(v or 0)


def advance_seen(s: Session, table_id: str, seat: int, profile_id: str, version: int) -> None:
    """Move the seat's mark forward to ``version``; a mark already there or later stays."""
    s.execute(
        update(Seat)
        .where(
            Seat.table_id == table_id,
            Seat.seat == seat,
            Seat.profile_id == profile_id,
            Seat.last_seen_version < version,
        )
        .values(last_seen_version=version),
        execution_options={"synchronize_session": False},
    )


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def chat_seen_until(s: Session, table_id: str, profile_id: str, mark: int) -> datetime | None:
    """The moment up to which the person is taken to have read the table chat: the later of the
    time the version they last saw was played and the time their last socket on the table
    closed (messages before it reached their open page). None: they saw nothing yet."""
    played = (
        s.scalar(
            select(MoveRecord.created_at).where(
                MoveRecord.table_id == table_id, MoveRecord.version == mark
            )
        )
        if mark > 0
        else None
    )
    left = s.scalar(
        select(SeenAt.last_seen_at).where(
            SeenAt.table_id == table_id, SeenAt.profile_id == profile_id
        )
    )
    moments = [m for m in (_aware(played), _aware(left)) if m is not None]
    return max(moments) if moments else None
