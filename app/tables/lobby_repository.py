"""The SQL of a table's lobby: its seats and who sits in them, the host's limits, the start of
a game, the bots' seats, and the seats a rematch's invitations hold."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    bindparam,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session

from app.db.models import GameTable, Profile, Seat, TableInvitation
from app.pace.clock import ClockBlob
from app.tables.options import EngineOptions
from app.tables.repository import SEAT, TABLE, count_moves
from app.tables.status import TableStatus

NAMES = select(Profile.id, Profile.name).where(Profile.id.in_(bindparam("p_ids", expanding=True)))


def table_for_change(s: Session, table_id: str) -> GameTable | None:
    """The table read with the seats' lock (see ``LOBBY_TABLE_FOR_CHANGE``), as the database
    holds it now (whatever the session remembered): the first read of an act that changes its
    seats or judges by them; the seats read after it are those of the last such act."""
    return s.get(GameTable, table_id, with_for_update={"key_share": True}, populate_existing=True)


def seats(s: Session, table_id: str) -> list[Seat]:
    return list(s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)))


def holds_seat(s: Session, profile_id: str, table_id: str) -> bool:
    """The profile sits at the table (itself, or a bot playing its seat)."""
    found = s.scalar(
        select(Seat.seat).where(Seat.table_id == table_id, Seat.profile_id == profile_id).limit(1)
    )
    return found is not None


def names(s: Session | Connection, profile_ids: Sequence[str]) -> dict[str, str]:
    if not profile_ids:
        return {}
    rows = s.execute(NAMES, {"p_ids": list(profile_ids)})
    return {pid: name for pid, name in rows}


def lock_profile(s: Session, profile_id: str) -> None:
    """Serialise this profile's table creations until the end of the transaction: a write to
    its row takes the row lock on Postgres and the database's write lock on SQLite, so the count
    that follows sees every creation that committed before."""
    s.execute(
        update(Profile).where(Profile.id == profile_id).values(name=Profile.name),
        execution_options={"synchronize_session": False},
    )


def tables_opened_since(s: Session, profile_id: str, since: datetime) -> int:
    n = s.scalar(
        select(func.count())
        .select_from(GameTable)
        .where(GameTable.host_profile_id == profile_id, GameTable.created_at > since)
    )
    return int(n or 0)


BUMP_SEATS = (
    update(TABLE)
    .where(TABLE.c.id == bindparam("p_id"))
    .values(seats_version=TABLE.c.seats_version + 1)
)


TAKE_SEAT = insert(SEAT).values(
    table_id=bindparam("p_id"), seat=bindparam("p_seat"), profile_id=bindparam("p_profile")
)


def bump_seats(s: Session | Connection, table_id: str) -> None:
    """Every seat change advances the table's ``seats_version`` in its own transaction."""
    s.execute(BUMP_SEATS, {"p_id": table_id}, execution_options={"synchronize_session": False})


def take_seat(conn: Connection, table_id: str, seat: int, profile_id: str) -> None:
    """A person sits down (in the caller's transaction; a seat taken meanwhile breaks the
    unique key: ``IntegrityError``)."""
    conn.execute(TAKE_SEAT, {"p_id": table_id, "p_seat": seat, "p_profile": profile_id})


def start_game(
    s: Session,
    table_id: str,
    seed: int,
    engine_options: EngineOptions,
    state: dict[str, Any],
    at: datetime,
    seats_version: int,
    clock: ClockBlob | None = None,
    deadline: float | None = None,
) -> bool:
    """lobby -> playing with the dealt state, for the seats of ``seats_version`` (those it was
    dealt for); False if the table was no longer in the lobby or its seats changed."""
    n = s.execute(
        update(GameTable)
        .where(
            GameTable.id == table_id,
            GameTable.status == TableStatus.LOBBY,
            GameTable.seats_version == seats_version,
        )
        .values(
            status=TableStatus.PLAYING,
            seed=seed,
            engine_options=engine_options,
            state=state,
            version=0,
            updated_at=at,
            clock=clock,
            deadline=deadline,
        ),
        execution_options={"synchronize_session": False},
    )
    return int(n.rowcount) == 1  # type: ignore[attr-defined]


def tables_of(s: Session, profile_id: str, limit: int = 100) -> list[GameTable]:
    """The profile's tables that are not closed, most recently changed first."""
    return list(
        s.scalars(
            select(GameTable)
            .join(Seat, Seat.table_id == GameTable.id)
            .where(Seat.profile_id == profile_id, GameTable.status != TableStatus.CLOSED)
            .order_by(GameTable.updated_at.desc())
            .limit(limit)
        )
    )


def bot_seats(s: Session, table_id: str) -> dict[int, str]:
    """seat -> bot level, for the seats of the table a bot plays."""
    rows = s.execute(
        select(Seat.seat, Seat.bot_level).where(
            Seat.table_id == table_id, Seat.bot_level.is_not(None)
        )
    )
    return {seat: level for seat, level in rows if level is not None}


def tables_with_bots(s: Session) -> list[str]:
    """Running games where a bot holds a seat."""
    q = (
        select(GameTable.id)
        .join(Seat, Seat.table_id == GameTable.id)
        .where(GameTable.status == TableStatus.PLAYING, Seat.bot_level.is_not(None))
        .distinct()
    )
    return list(s.scalars(q))


def unattended_tables(s: Session, profile_id: str, other_than: str | None = None) -> int:
    """Running games of the profile (it sits there, or hosts) where a bot plays every seat."""
    humanly_played = exists().where(Seat.table_id == GameTable.id, Seat.bot_level.is_(None))
    theirs = or_(
        GameTable.host_profile_id == profile_id,
        exists().where(Seat.table_id == GameTable.id, Seat.profile_id == profile_id),
    )
    q = (
        select(func.count())
        .select_from(GameTable)
        .where(GameTable.status == TableStatus.PLAYING, theirs, ~humanly_played)
    )
    if other_than is not None:
        q = q.where(GameTable.id != other_than)
    return int(s.scalar(q) or 0)


def delete_unplayed(s: Session, table_id: str) -> None:
    """Delete a table that never saw a move (a solo start that lost its race)."""
    if count_moves(s, table_id):
        return
    s.execute(delete(Seat).where(Seat.table_id == table_id))
    s.execute(delete(GameTable).where(GameTable.id == table_id))


RESERVED = select(TableInvitation.seat).where(
    TableInvitation.table_id == bindparam("p_id"),
    TableInvitation.status == "pending",
    TableInvitation.seat.is_not(None),
)


def reserved_seats(s: Session | Connection, table_id: str) -> set[int]:
    """The seats kept for invited people who have not answered yet."""
    return {int(n) for n in s.scalars(RESERVED, {"p_id": table_id}) if n is not None}


def claim_rematch(s: Session, table_id: str, rematch_id: str) -> bool:
    """Name ``rematch_id`` the rematch of a finished table, unless one was named before."""
    n = s.execute(
        update(GameTable)
        .where(
            GameTable.id == table_id,
            GameTable.rematch_id.is_(None),
            GameTable.status == TableStatus.FINISHED,
        )
        .values(rematch_id=rematch_id),
        execution_options={"synchronize_session": False},
    )
    return int(n.rowcount) == 1  # type: ignore[attr-defined]
