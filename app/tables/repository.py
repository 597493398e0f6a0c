"""All the SQL of tables and games: Core statements for the hot path, ORM queries for the rest.

The hot path (a move, a catch-up) speaks Core to these tables: no ORM identity map or unit of
work per move. Its statements are built once: a statement built per call costs more Python than
its round trip to Postgres.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    and_,
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

from app.db.direct import Compiled
from app.db.models import GameTable, MoveRecord, Profile, Seat, TableInvitation
from app.tables.status import TableStatus

TABLE: Table = GameTable.__table__  # type: ignore[assignment]
MOVE: Table = MoveRecord.__table__  # type: ignore[assignment]
SEAT: Table = Seat.__table__  # type: ignore[assignment]

# The move's conditional update: exactly one move follows each version, and only with the seats
# it was judged with (``seats_version``), whichever instance changed them.
ADVANCE = (
    update(TABLE)
    .where(
        TABLE.c.id == bindparam("p_id"),
        TABLE.c.version == bindparam("p_expected"),
        # (a parameter, not a literal: the statement is also the CTE of ADVANCE_AND_LOG)
        TABLE.c.status == bindparam("p_playing", type_=TABLE.c.status.type),
        TABLE.c.seats_version == bindparam("p_seats"),
    )
    .values(
        state=bindparam("p_state", type_=TABLE.c.state.type),
        version=bindparam("p_version", type_=TABLE.c.version.type),
        status=bindparam("p_status", type_=TABLE.c.status.type),
        updated_at=bindparam("p_at", type_=TABLE.c.updated_at.type),
        # Pace (app/pace/book.py): the clock and the earliest deadline, in the same statement.
        clock=bindparam("p_clock", type_=TABLE.c.clock.type),
        deadline=bindparam("p_deadline", type_=TABLE.c.deadline.type),
    )
)
LOG = insert(MOVE)
# The columns a move's log row sets (app/tables/play.py ``move_written``).
LOG_COLUMNS = ("table_id", "version", "seat", "move", "events", "move_id", "created_at")
# Postgres: the conditional update and the log insert in one statement (one round trip, atomic
# by itself): the insert takes its row from the update's RETURNING, so no row is logged unless
# the table moved; a move_id played already breaks the log's unique key and undoes both.
_UP = ADVANCE.returning(TABLE.c.id).cte("up")
ADVANCE_AND_LOG = (
    insert(MOVE)
    .from_select(
        list(LOG_COLUMNS),
        select(
            _UP.c.id,
            # (named apart from the table's columns: a parameter named like one would set it)
            bindparam("m_version", type_=MOVE.c.version.type),
            bindparam("m_seat", type_=MOVE.c.seat.type),
            bindparam("m_move", type_=MOVE.c.move.type),
            bindparam("m_events", type_=MOVE.c.events.type),
            bindparam("m_move_id", type_=MOVE.c.move_id.type),
            bindparam("m_created_at", type_=MOVE.c.created_at.type),
        ),
    )
    .returning(MOVE.c.version)
)
# The same, and the notice to the other processes (app/realtime/notify.py) in it: Postgres
# delivers it when the statement commits, and never for a move that did not. The one statement of
# a move on Postgres, sent from the event loop (app/tables/store_postgres.py).
ADVANCE_LOG_AND_NOTIFY = Compiled(
    ADVANCE_AND_LOG.returning(func.pg_notify(bindparam("n_channel"), bindparam("n_payload")))
)
SNAPSHOT = select(
    TABLE.c.status, TABLE.c.version, TABLE.c.state, TABLE.c.seats_version, TABLE.c.clock
).where(TABLE.c.id == bindparam("p_id"))
HEAD = select(TABLE.c.status, TABLE.c.version, TABLE.c.seats_version).where(
    TABLE.c.id == bindparam("p_id")
)
PRIOR = select(MOVE.c.version, MOVE.c.events).where(
    MOVE.c.table_id == bindparam("p_id"),
    MOVE.c.seat == bindparam("p_seat"),
    MOVE.c.move_id == bindparam("p_move_id"),
)
GAME_SEATS = (
    select(Seat.seat, Profile.name, Seat.bot_level, Seat.profile_id)
    .outerjoin(Profile, Profile.id == Seat.profile_id)
    .where(Seat.table_id == bindparam("p_id"))
    .order_by(Seat.seat)
)

NAMES = select(Profile.id, Profile.name).where(Profile.id.in_(bindparam("p_ids", expanding=True)))
# What a lobby shows of a table (``lobby_table``): every column but the seed and the engine's
# options; its seats are GAME_SEATS' rows.
LOBBY_TABLE = select(
    TABLE.c.id,
    TABLE.c.invite_code,
    TABLE.c.host_profile_id,
    TABLE.c.seat_count,
    TABLE.c.options,
    TABLE.c.status,
    TABLE.c.state,
    TABLE.c.version,
    TABLE.c.created_at,
    TABLE.c.clock,
    TABLE.c.name,
    TABLE.c.rematch_id,
).where(TABLE.c.id == bindparam("p_id"))
# The seats' lock (``lobby_table(..., for_change=True)``, ``table_for_change``): every act that
# changes a table's seats, or judges by them (a start), reads the table with it as its first
# statement, so such acts run one after another on any number of instances and each reads the
# seats another committed. On Postgres the row lock an UPDATE of the row takes (FOR NO KEY
# UPDATE: rows of other tables that refer to it, a seat, a move's log line, are not held up); on
# SQLite nothing is added: the transaction began IMMEDIATE, with the database's one write lock.
LOBBY_TABLE_FOR_CHANGE = LOBBY_TABLE.add_columns(TABLE.c.seats_version).with_for_update(
    key_share=True
)


# ------------------------------------------------------------------------------ hot path
def snapshot(conn: Connection, table_id: str) -> Any:
    """status, version, state, seats_version, clock of a table."""
    return conn.execute(SNAPSHOT, {"p_id": table_id}).first()


def head(conn: Connection, table_id: str) -> Any:
    """status, version, seats_version of a table."""
    return conn.execute(HEAD, {"p_id": table_id}).first()


def game_seats(conn: Connection | Session, table_id: str) -> list[dict[str, Any]]:
    """Who holds each seat of a started table: the player's name, and the bot level if a bot
    plays the seat (a bot of its own has no name; a seat handed to a bot keeps the name)."""
    return game_seats_and_holders(conn, table_id)[0]


def game_seats_and_holders(
    conn: Connection | Session, table_id: str
) -> tuple[list[dict[str, Any]], dict[int, str | None]]:
    """``game_seats``, and the profile that holds each seat (never sent: the seat checks of a
    move and of every frame a socket receives are made against it)."""
    rows = conn.execute(GAME_SEATS, {"p_id": table_id}).all()
    seats = [{"seat": seat, "name": name, "bot_level": level} for seat, name, level, _ in rows]
    return seats, {seat: holder for seat, _, _, holder in rows}


def lobby_table(
    conn: Connection, table_id: str, for_change: bool = False
) -> tuple[Any, Sequence[Any]] | None:
    """A table as its lobby shows it (``LOBBY_TABLE``) and its seats, holders and names
    (``GAME_SEATS``' rows: seat, name, bot_level, profile_id); None when there is no such
    table. Two prebuilt statements, for the reads of a lobby (``Database.read``); with
    ``for_change``, the table is read with the seats' lock (``LOBBY_TABLE_FOR_CHANGE``, its
    ``seats_version`` too) and the seats after it, inside the caller's transaction."""
    statement = LOBBY_TABLE_FOR_CHANGE if for_change else LOBBY_TABLE
    t = conn.execute(statement, {"p_id": table_id}).first()
    if t is None:
        return None
    return t, lobby_seats(conn, table_id)


def lobby_seats(conn: Connection, table_id: str) -> Sequence[Any]:
    """``GAME_SEATS``' rows of a table: seat, name, bot_level, profile_id."""
    return conn.execute(GAME_SEATS, {"p_id": table_id}).all()


def advance(conn: Connection, params: Mapping[str, Any]) -> int:
    """The conditional update; the number of rows it changed (0 or 1)."""
    return int(conn.execute(ADVANCE, advance_values(params)).rowcount)


def advance_values(params: Mapping[str, Any]) -> dict[str, Any]:
    """The conditional update's parameters: the move's, and the status it requires."""
    return {**params, "p_playing": TableStatus.PLAYING}


def advance_and_log_values(params: Mapping[str, Any], row: Mapping[str, Any]) -> dict[str, Any]:
    """``ADVANCE_AND_LOG``'s parameters: the update's and the log row's (``m_`` before each)."""
    values = advance_values(params)
    values.update({f"m_{k}": v for k, v in row.items() if k != "table_id"})
    return values


def prior(conn: Connection, table_id: str, seat: int, move_id: str) -> Any:
    """version and raw events of this seat's move ``move_id``, if it was played."""
    return conn.execute(PRIOR, {"p_id": table_id, "p_seat": seat, "p_move_id": move_id}).first()


def version_of(conn: Connection, table_id: str) -> int | None:
    v: int | None = conn.scalar(select(TABLE.c.version).where(TABLE.c.id == table_id))
    return v


def log_between(conn: Connection, table_id: str, since: int, upto: int) -> Sequence[Any]:
    """The log lines after version ``since`` up to ``upto``, in order."""
    return conn.execute(
        select(MOVE.c.version, MOVE.c.seat, MOVE.c.move, MOVE.c.events, MOVE.c.created_at)
        .where(MOVE.c.table_id == table_id, MOVE.c.version > since, MOVE.c.version <= upto)
        .order_by(MOVE.c.version)
    ).all()


# ------------------------------------------------------------------------------ lobby (ORM)
def table(s: Session, table_id: str) -> GameTable | None:
    return s.get(GameTable, table_id)


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
    engine_options: dict[str, Any],
    state: dict[str, Any],
    at: datetime,
    seats_version: int,
    clock: dict[str, Any] | None = None,
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


def full_log(s: Session, table_id: str, upto: int | None = None) -> list[MoveRecord]:
    q = select(MoveRecord).where(MoveRecord.table_id == table_id)
    if upto is not None:
        q = q.where(MoveRecord.version <= upto)
    return list(s.scalars(q.order_by(MoveRecord.version)))


def log_page(
    s: Session, table_id: str, before: int | None, limit: int
) -> tuple[list[MoveRecord], bool]:
    """The newest ``limit`` log lines below version ``before`` (all when None), oldest first, and
    whether older ones remain."""
    q = select(MoveRecord).where(MoveRecord.table_id == table_id)
    if before is not None:
        q = q.where(MoveRecord.version < before)
    rows = list(s.scalars(q.order_by(MoveRecord.version.desc()).limit(limit + 1)))
    more = len(rows) > limit
    rows = rows[:limit]
    rows.reverse()
    return rows, more


def count_moves(s: Session, table_id: str) -> int:
    return int(s.scalar(select(func.count()).where(MoveRecord.table_id == table_id)) or 0)


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


# ------------------------------------------------------------------------------ play again
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


# ------------------------------------------------------------------------------ deadlines
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


def seat_holders(conn: Connection | Session, table_id: str) -> Sequence[Any]:
    """Every seat of a table with its profile, bot level and the holder's name."""
    return conn.execute(
        select(Seat.seat, Seat.profile_id, Seat.bot_level, Profile.name)
        .outerjoin(Profile, Profile.id == Seat.profile_id)
        .where(Seat.table_id == table_id)
    ).all()


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


# ----------------------------------------------------------------- reads for other features
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
