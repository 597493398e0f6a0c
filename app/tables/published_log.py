"""The games as other features read them: a finished table's parts and its move log (records,
history), a seat's "since you looked" mark (seen). Published like published.py: the only way
another feature reads these rows (docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Integer, case, cast, func, select, update
from sqlalchemy.orm import Session

from app.db.models import GameTable, MoveRecord, Seat
from app.tables.options import EngineOptions, TableOptionsDoc, stored_options
from app.tables.repository import full_log, log_between
from app.tables.status import TableStatus

__all__ = [
    "FinishedRow",
    "LoggedMove",
    "TableAccess",
    "advance_seen",
    "finished",
    "full_log",
    "game_head",
    "last_seen",
    "log_between",
    "moves",
    "my_moves",
    "played_at",
    "table_access",
    "table_version",
]


class FinishedRow(NamedTuple):
    table_id: str
    name: str | None
    seat_count: int
    engine_options: EngineOptions | None
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


class TableAccess(NamedTuple):
    """What deciding who may see a table's record reads: no state, no log."""

    status: str
    options: TableOptionsDoc
    has_game: bool  # a seed and a state: the game was dealt


def table_access(s: Session, table_id: str) -> TableAccess | None:
    row = s.execute(
        select(
            GameTable.status,
            GameTable.options,
            GameTable.seed.is_not(None),
            GameTable.state.is_not(None),
        ).where(GameTable.id == table_id)
    ).first()
    if row is None:
        return None
    status, options, has_seed, has_state = row
    return TableAccess(status, stored_options(options), bool(has_seed) and bool(has_state))


class LoggedMove(NamedTuple):
    version: int
    seat: int
    move: dict[str, Any]
    at: datetime
    events: list[dict[str, Any]]


def moves(s: Session, table_id: str, upto: int) -> list[LoggedMove]:
    """The table's moves up to ``upto`` as they were made, in order (taken back ones too)."""
    rows = s.execute(
        select(
            MoveRecord.version,
            MoveRecord.seat,
            MoveRecord.move,
            MoveRecord.created_at,
            MoveRecord.events,
        )
        .where(MoveRecord.table_id == table_id, MoveRecord.version <= upto)
        .order_by(MoveRecord.version)
    ).all()
    return [LoggedMove(*r) for r in rows]


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


def played_at(s: Session, table_id: str, version: int) -> datetime | None:
    """When the move that made ``version`` of the game was played (None: no move did)."""
    return s.scalar(
        select(MoveRecord.created_at).where(
            MoveRecord.table_id == table_id, MoveRecord.version == version
        )
    )
