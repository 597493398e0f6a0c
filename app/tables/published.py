"""The tables' rows as other features read and write them: every read another feature makes of a
table or its seats, and every change it makes to them, is one of these functions or of
published_log.py (docs/architecture.md, "Data"). They take the caller's session or connection;
a row they hand out is read, never written back (a change is a function here). A subquery
(``seated_ids``) lets a feature join its own rows with the seats in one statement."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import (
    Connection,
    Select,
    and_,
    func,
    or_,
    select,
)
from sqlalchemy.orm import Session

from app.db.models import GameTable, MoveRecord, Profile, Seat
from app.tables.lobby_repository import (
    bot_seats,
    bump_seats,
    delete_unplayed,
    lock_profile,
    seats,
    tables_with_bots,
    unattended_tables,
)
from app.tables.repository import table
from app.tables.status import TableStatus

__all__ = [
    "bot_seats",
    "bump_seats",
    "delete_unplayed",
    "lock_profile",
    "seats",
    "table",
    "tables_with_bots",
    "unattended_tables",
]


def seated_profiles(s: Session, table_id: str) -> list[str]:
    """The profiles sitting at a table (seats a bot took over included: the person still sits)."""
    rows = s.scalars(
        select(Seat.profile_id).where(Seat.table_id == table_id, Seat.profile_id.is_not(None))
    )
    return [str(pid) for pid in rows]


def host_name(s: Session, table_id: str) -> str | None:
    """The name of the table's host."""
    return s.scalar(
        select(Profile.name)
        .join(GameTable, GameTable.host_profile_id == Profile.id)
        .where(GameTable.id == table_id)
    )


def mover_at(s: Session, table_id: str, version: int) -> int | None:
    """The seat whose move made ``version`` of the game (None: no move did)."""
    return s.scalar(
        select(MoveRecord.seat).where(
            MoveRecord.table_id == table_id, MoveRecord.version == version
        )
    )


def finished_mark(s: Session, profile_id: str, table_id: str) -> Any:
    """(updated_at, id) of a finished table where the profile sits, or None."""
    return s.execute(
        select(GameTable.updated_at, GameTable.id)
        .join(Seat, Seat.table_id == GameTable.id)
        .where(
            GameTable.id == table_id,
            Seat.profile_id == profile_id,
            GameTable.status == TableStatus.FINISHED,
        )
    ).first()


def tables_where_seated(
    s: Session,
    profile_id: str,
    statuses: tuple[TableStatus, ...],
    after: tuple[datetime, str] | None,
    limit: int,
) -> list[tuple[GameTable, int, str | None]]:
    """(table, the profile's seat, that seat's bot level) of the profile's tables in
    ``statuses``, latest change first (ties by id), after the (updated_at, id) mark when given."""
    q = (
        select(GameTable, Seat.seat, Seat.bot_level)
        .join(Seat, Seat.table_id == GameTable.id)
        .where(Seat.profile_id == profile_id, GameTable.status.in_(statuses))
    )
    if after is not None:
        at, table_id = after
        q = q.where(
            or_(
                GameTable.updated_at < at,
                and_(GameTable.updated_at == at, GameTable.id < table_id),
            )
        )
    q = q.order_by(GameTable.updated_at.desc(), GameTable.id.desc()).limit(limit)
    return [(t, seat, level) for t, seat, level in s.execute(q).all()]


def seats_of_tables(s: Session, table_ids: Sequence[str]) -> Sequence[Any]:
    """(table_id, seat, name, bot_level, profile_id) of every seat of the tables, by seat."""
    return s.execute(
        select(Seat.table_id, Seat.seat, Profile.name, Seat.bot_level, Profile.id)
        .outerjoin(Profile, Profile.id == Seat.profile_id)
        .where(Seat.table_id.in_(table_ids))
        .order_by(Seat.seat)
    ).all()


def seat_count_and_status(s: Session, table_id: str) -> Any:
    """(seat_count, status) of a table, or None: a cheap look before loading the row."""
    return s.execute(
        select(GameTable.seat_count, GameTable.status).where(GameTable.id == table_id)
    ).first()


def last_move_at(s: Session, table_id: str) -> datetime | None:
    """When the table's last move was played (None: no move yet)."""
    return s.scalar(select(func.max(MoveRecord.created_at)).where(MoveRecord.table_id == table_id))


def profile_at(s: Session, table_id: str, seat: int) -> str | None:
    """The profile holding a seat of the table (None: nobody)."""
    return s.scalar(select(Seat.profile_id).where(Seat.table_id == table_id, Seat.seat == seat))


def seat_holders(conn: Connection | Session, table_id: str) -> Sequence[Any]:
    """Every seat of a table with its profile, bot level and the holder's name."""
    return conn.execute(
        select(Seat.seat, Seat.profile_id, Seat.bot_level, Profile.name)
        .outerjoin(Profile, Profile.id == Seat.profile_id)
        .where(Seat.table_id == table_id)
    ).all()


def seated_ids(table_id: str) -> Select[str | None]:
    """The profiles holding a seat of the table, as a subquery to join a feature's own rows
    with (``Model.profile_id.in_(seated_ids(table_id))``)."""
    return select(Seat.profile_id).where(Seat.table_id == table_id, Seat.profile_id.is_not(None))


def seat_held(s: Session, table_id: str, profile_id: str) -> int | None:
    """The seat the profile holds at the table now (None: it looks on as a spectator)."""
    seat: int | None = s.scalar(
        select(Seat.seat).where(Seat.table_id == table_id, Seat.profile_id == profile_id)
    )
    return seat


def person_at(s: Session, table_id: str, seat: int) -> tuple[str, str] | None:
    """(profile id, name) of the person holding a seat, unless their profile was deleted."""
    row = s.execute(
        select(Profile.id, Profile.name)
        .join(Seat, Seat.profile_id == Profile.id)
        .where(Seat.table_id == table_id, Seat.seat == seat, Profile.deleted_at.is_(None))
    ).first()
    return None if row is None else (str(row[0]), str(row[1]))


class SeatNamed(TypedDict):
    """A seat of a table as records and histories show it."""

    seat: int
    name: str | None  # null: a bot of its own
    bot_level: str | None


def seats_named(s: Session, table_ids: Sequence[str]) -> dict[str, list[SeatNamed]]:
    """Per table: seat, the person's name (null for a bot of its own) and the bot level of each
    seat, by seat."""
    out: dict[str, list[SeatNamed]] = {}
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


def deadlines_before(s: Session, until: float, limit: int) -> Sequence[Any]:
    """Playing tables whose earliest deadline falls before ``until``: id, clock, options."""
    return s.execute(
        select(GameTable.id, GameTable.clock, GameTable.options)
        .where(GameTable.status == TableStatus.PLAYING, GameTable.deadline <= until)
        .order_by(GameTable.deadline)
        .limit(limit)
    ).all()


def set_public_replay(s: Session, t: GameTable, public: bool) -> None:
    """The table's options with ``public_replay`` set (a new dict: the JSON column sees it)."""
    t.options = {**t.options, "public_replay": public}


def tables_in(status: TableStatus) -> Select[str]:
    """The ids of the tables in ``status``, as a subquery (``Model.table_id.in_(...)``)."""
    return select(GameTable.id).where(GameTable.status == status)


def finished_solo_tables(s: Session, profile_id: str) -> list[str]:
    """The finished one-seat tables the profile sits at."""
    return [
        str(i)
        for i in s.scalars(
            select(GameTable.id)
            .join(Seat, Seat.table_id == GameTable.id)
            .where(
                Seat.profile_id == profile_id,
                GameTable.seat_count == 1,
                GameTable.status == TableStatus.FINISHED,
            )
        )
    ]


def add_bot_seat(s: Session, table_id: str, seat: int, level: str) -> None:
    """A bot of ``level`` takes an empty seat of a lobby."""
    s.add(Seat(table_id=table_id, seat=seat, profile_id=None, bot_level=level))


def set_bot(row: Seat, level: str | None) -> None:
    """The seat (read for change, in the caller's transaction) played by a bot of ``level``, or
    by its person again (None)."""
    row.bot_level = level
