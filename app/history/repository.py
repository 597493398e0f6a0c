"""All the SQL of a profile's history: its finished tables and who sat at them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, TypedDict

from sqlalchemy import Integer, case, cast, func, select
from sqlalchemy.orm import Session

from app.db.models import GameTable, MoveRecord, Profile, Seat
from app.tables.status import TableStatus


class FinishedRow(NamedTuple):
    table_id: str
    name: str | None
    seat_count: int
    engine_options: dict[str, Any] | None
    state: dict[str, Any] | None
    finished_at: datetime | None
    my_seat: int
    bot_level: str | None  # a bot still held my seat when the game ended


def finished(s: Session, profile_id: str, limit: int) -> list[FinishedRow]:
    """The profile's finished tables (at most ``limit``), latest end first (ties by id): one
    row per table, the seat it held there (a seat handed to a bot is still its seat)."""
    rows = s.execute(
        select(
            GameTable.id,
            GameTable.name,
            GameTable.seat_count,
            GameTable.engine_options,
            GameTable.state,
            GameTable.updated_at,
            Seat.seat,
            Seat.bot_level,
        )
        .join(Seat, Seat.table_id == GameTable.id)
        .where(Seat.profile_id == profile_id, GameTable.status == TableStatus.FINISHED)
        .order_by(GameTable.updated_at.desc(), GameTable.id.desc())
        .limit(limit)
    ).all()
    return [FinishedRow(*r) for r in rows]


class SeatLine(TypedDict):
    """A seat of a finished game as the history shows it (``HistoryPlayer``)."""

    seat: int
    name: str | None  # null: a bot of its own
    bot_level: str | None


def seats_of(s: Session, table_ids: list[str]) -> dict[str, list[SeatLine]]:
    """Seat, person's name (null for a bot of its own) and bot level of each table's seats."""
    out: dict[str, list[SeatLine]] = {}
    if not table_ids:
        return out
    rows = s.execute(
        select(Seat.table_id, Seat.seat, Profile.name, Seat.bot_level)
        .outerjoin(Profile, Profile.id == Seat.profile_id)
        .where(Seat.table_id.in_(table_ids))
        .order_by(Seat.table_id, Seat.seat)
    ).all()
    for table_id, seat, name, level in rows:
        out.setdefault(table_id, []).append({"seat": seat, "name": name, "bot_level": level})
    return out


# The bot runner's moves carry its own move id (app/bots/runner.py): "bot:{seat}:{version}".
BOT_MOVE_ID = "bot:%"


def my_moves(s: Session, profile_id: str, table_ids: list[str]) -> dict[str, tuple[int, int]]:
    """Per finished table: (moves made at my seat, of them made by a bot playing it for me)."""
    if not table_ids:
        return {}
    by_bot = func.sum(cast(case((MoveRecord.move_id.like(BOT_MOVE_ID), 1), else_=0), Integer))
    rows = s.execute(
        select(MoveRecord.table_id, func.count(), by_bot)
        .join(
            Seat,
            (Seat.table_id == MoveRecord.table_id) & (Seat.seat == MoveRecord.seat),
        )
        .where(Seat.profile_id == profile_id, MoveRecord.table_id.in_(table_ids))
        .group_by(MoveRecord.table_id)
    ).all()
    return {table_id: (int(n), int(bots or 0)) for table_id, n, bots in rows}
