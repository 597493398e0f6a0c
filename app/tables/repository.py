"""The SQL of a game: the table's row and its move log, Core statements for the hot path.

The hot path (a move, a catch-up) speaks Core to these tables: no ORM identity map or unit of
work per move. Its statements are built once: a statement built per call costs more Python than
its round trip to Postgres. The lobby's SQL is app/tables/lobby_repository.py, the deadlines'
deadline_repository.py; what other features may read and write of the tables is published.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Session

from app.db.direct import Compiled
from app.db.models import GameTable, MoveRecord, Profile, Seat
from app.tables.schemas import GameSeat
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


def game_seats(conn: Connection | Session, table_id: str) -> list[GameSeat]:
    """Who holds each seat of a started table: the player's name, and the bot level if a bot
    plays the seat (a bot of its own has no name; a seat handed to a bot keeps the name)."""
    return game_seats_and_holders(conn, table_id)[0]


def game_seats_and_holders(
    conn: Connection | Session, table_id: str
) -> tuple[list[GameSeat], dict[int, str | None]]:
    """``game_seats``, and the profile that holds each seat (never sent: the seat checks of a
    move and of every frame a socket receives are made against it)."""
    rows = conn.execute(GAME_SEATS, {"p_id": table_id}).all()
    seats: list[GameSeat] = [
        {"seat": seat, "name": name, "bot_level": level} for seat, name, level, _ in rows
    ]
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


# ----------------------------------------------------------------------- the game's rows (ORM)
def table(s: Session, table_id: str) -> GameTable | None:
    return s.get(GameTable, table_id)


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
