"""The move store: where an accepted move is written, one implementation per database.

``Play`` (app/tables/play.py) judges a move and hands the store what it writes; the store writes
it and says what to publish. Each store is one path, whatever the move (the game's end, a table
read from the database, a solo game): on Postgres one statement sent from the event loop
(app/tables/store_postgres.py), on SQLite the one thread that writes the moves queued meanwhile
in one transaction (app/tables/writer.py). The write is the conditional update (the version and
the seats the move was judged with, the game in play) and the log row (unique per table, seat
and ``move_id``); a move that ends the game also has the finish hooks run (the solo result).

A failure is an error the caller answers: ``MoveConflict`` when the table was not where the move
expected it or the seat's ``move_id`` is in the log (nothing written: ``Play`` reads where the
table is and answers as for any refusal), ``Unavailable`` when the database did not answer
(whether the move was written is then unknown: the client's retry with its ``move_id`` says).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypedDict

from sqlalchemy import Connection

from app import rules
from app.db.models import utcnow
from app.db.session import Database
from app.realtime.hub import Notice
from app.tables.status import TableStatus
from app.tables.types import LogRow

# Hears, inside the transaction of the move that ended the game (or right after its commit, on
# Postgres), that the game is over: the solo record.
FinishHook = Callable[[Connection, str], None]


class Advance(TypedDict):
    """The conditional update's parameters (app/tables/repository.py ``ADVANCE``)."""

    p_id: str
    p_expected: int  # the version the move was judged at
    p_seats: int  # the seats_version it was judged with
    p_state: Any  # the engine's state after the move (its blob)
    p_version: int
    p_status: TableStatus
    p_at: datetime
    p_clock: Any  # the pace clock after the move (app/pace), or None
    p_deadline: float | None


class LogLine(TypedDict):
    """The move's log row (app/tables/repository.py ``LOG_COLUMNS``)."""

    table_id: str
    version: int
    seat: int
    move: Any
    events: list[Any]
    move_id: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """What a judged move writes."""

    advance: Advance
    line: LogLine
    finished: bool  # the move ends the game: the finish hooks run with it

    @property
    def table_id(self) -> str:
        return self.advance["p_id"]

    @property
    def version(self) -> int:
        return self.advance["p_version"]


def move_written(
    table_id: str,
    seat: int,
    move_id: str,
    expected: int,
    seen: int,
    tr: rules.Transition,
    clock: Any,
    deadline: float | None,
    status: TableStatus = TableStatus.PLAYING,
) -> tuple[Advance, LogLine, LogRow]:
    """What a move writes: the table's conditional update's parameters, the log row, and the
    log line as this process remembers it."""
    now = utcnow()
    new_version = expected + 1
    params: Advance = {
        "p_id": table_id,
        "p_expected": expected,
        "p_seats": seen,
        "p_state": rules.state_blob(tr.state),
        "p_version": new_version,
        "p_status": status,
        "p_at": now,
        "p_clock": clock,
        "p_deadline": deadline,
    }
    raw_events = list(tr.events)
    entry = LogRow(
        version=new_version,
        seat=seat,
        move=tr.move,
        events=raw_events,
        created_at=now,
    )
    row: LogLine = {
        "table_id": table_id,
        "version": new_version,
        "seat": seat,
        "move": entry.move,
        "events": raw_events,
        "move_id": move_id,
        "created_at": now,
    }
    return params, row, entry


class MoveConflict(Exception):
    """Nothing was written: the table was not at the version, seats and status the move was
    judged with, or the seat's ``move_id`` is in the log already."""


class MoveStore(Protocol):
    async def store(self, move: MoveWrite) -> Notice:
        """Write the move (committed when this returns) and the notice to publish for it;
        ``MoveConflict`` or ``Unavailable`` (see the module)."""
        ...

    async def close(self) -> None:
        """Finish what is under way and let go of connections and threads (a later ``store``
        opens them again)."""
        ...


def move_store(db: Database, finished: FinishHook, channel: str) -> MoveStore:
    """The store of the database; ``finished`` is run for a move that ends the game, ``channel``
    the one the other processes listen on (app/realtime/notify.py)."""
    if db.postgres:
        from app.tables.store_postgres import PostgresMoves

        return PostgresMoves(db, finished, channel)
    from app.tables.writer import SqliteMoves

    return SqliteMoves(db, finished)
