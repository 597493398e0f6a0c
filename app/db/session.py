"""Engine and sessions (sync SQLAlchemy; async callers go through a thread)."""

from __future__ import annotations

import select
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import DataError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from app.db.checkpoint import AUTOCHECKPOINT_PAGES
from app.db.direct import DirectPool, json_text, libpq_dsn
from app.db.gate import SQLITE_WAIT_SECONDS, WriterGate, writer_gate
from app.errors import Malformed, Unavailable
from app.private_files import sqlite_file

# The interpreter's thread switch interval with SQLite (the default is 5 ms). SQLite releases the
# GIL around each statement and around the fsync of the commit; a thread that holds the writer
# gate then waits up to one interval for the GIL (the event loop and the socket writers keep it
# busy) after each of them, and every other transaction waits behind it in the gate: with 5 ms,
# a move that needs 1-2 ms of work held the gate 10-30 ms at the 95th-99th percentile.
SQLITE_SWITCH_INTERVAL = 0.0005


def _gated_connection_class(gate: WriterGate) -> type[sqlite3.Connection]:
    """A pysqlite connection in autocommit mode whose transactions go through ``gate``: ``begin``
    takes it (``BEGIN IMMEDIATE``), commit, rollback and close hand it back."""

    class GatedConnection(sqlite3.Connection):
        _holds = False
        _reading = False

        def begin(self, first: bool = False, read: bool = False) -> None:
            """``first``: ahead of the transactions that wait (a move's: app/db/gate.py).
            ``read``: a transaction that only reads (``Database.read``) does not queue at the
            gate: it begins deferred, reads one snapshot of the WAL file (which the writer
            neither waits for nor changes under it), and ``query_only`` makes a write in it fail
            instead of reaching for the write lock outside the gate."""
            if read:
                self.execute("PRAGMA query_only=ON")
                self._reading = True
                try:
                    self.execute("BEGIN")
                except BaseException:
                    self._leave()
                    raise
                return
            self._holds = gate.enter(first)
            try:
                self.execute("BEGIN IMMEDIATE" if self._holds else "BEGIN")
            except BaseException:
                self._leave()
                raise

        def _leave(self) -> None:
            if self._reading:
                self._reading = False
                self.execute("PRAGMA query_only=OFF")
            if self._holds:
                self._holds = False
                gate.leave()

        def commit(self) -> None:
            try:
                super().commit()
            finally:
                self._leave()

        def rollback(self) -> None:
            try:
                super().rollback()
            finally:
                self._leave()

        def close(self) -> None:
            self._reading = False  # nothing to reset on a connection that goes
            try:
                super().close()
            finally:
                self._leave()

    return GatedConnection


def make_engine(url: str, pool_size: int = 20, max_overflow: int = 10) -> Engine:
    # JSON columns (the snapshot, the move log) go through orjson: several times faster than the
    # standard library on the hot path, same text.
    kwargs: dict[str, Any] = {
        "future": True,
        "json_serializer": json_text,
        "json_deserializer": orjson.loads,
    }
    sqlite = url.startswith("sqlite")
    if sqlite:
        # isolation_level None: pysqlite emits no BEGIN of its own (it would begin deferred, on
        # the first write); the engine's ``begin`` below does, through the gate.
        kwargs["connect_args"] = {
            "check_same_thread": False,
            "timeout": SQLITE_WAIT_SECONDS,
            "isolation_level": None,
            "factory": _gated_connection_class(writer_gate(url)),
        }
    else:
        # Enough for the worker threads that run database work (anyio's default is 40): a
        # connection opened past pool_size + max_overflow would wait, one past pool_size is
        # closed again after use, which is costly under load.
        kwargs["pool_size"] = pool_size
        kwargs["max_overflow"] = max_overflow
    sqlite_file(url)  # a new SQLite file is created owner-only before SQLite opens it
    engine = create_engine(url, **kwargs)
    if not sqlite:
        _ping_when_idle(engine)
    if sqlite:
        # Process-wide, and only with SQLite (Postgres keeps the default): see the constant.
        sys.setswitchinterval(min(sys.getswitchinterval(), SQLITE_SWITCH_INTERVAL))

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL: readers of other processes (a backup, the migrations) do not block the
            # writer. synchronous=FULL: each commit reaches the disk (fsync of the log) before
            # the move is acknowledged, as on Postgres; NORMAL could lose the last commits to a
            # power cut.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            # SQLite's own checkpoint as a backstop only: the moves' writer has the log copied
            # back by a thread of its own, outside any commit (app/db/checkpoint.py).
            cur.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(SQLITE_WAIT_SECONDS * 1000)}")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            options = conn.get_execution_options()
            first, read = bool(options.get(FIRST)), bool(options.get(READ))
            conn.connection.dbapi_connection.begin(first, read)  # type: ignore[union-attr]

    return engine


# A pooled connection that sat unused this long is pinged at checkout (and replaced when dead).
PING_IDLE_SECONDS = 10.0


def _ping_when_idle(engine: Engine) -> None:
    """A connection that died in the pool (a restarted or failed-over Postgres) is replaced at
    checkout instead of failing the request, without a round trip per checkout: a connection
    the server ended has the server's goodbye (or the end of the stream) waiting on its socket,
    which a zero-timeout ``select`` sees; one that sat idle for long is pinged as well (a link
    that broke silently). A connection that dies while busy fails its statement (a typed,
    retryable ``unavailable``) and SQLAlchemy drops the pool's connections of that time."""

    @event.listens_for(engine, "checkin")
    def _checkin(dbapi_conn: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_conn: Any, record: Any, proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None:
            return  # a new connection
        try:
            if time.monotonic() - since < PING_IDLE_SECONDS:
                if not select.select([dbapi_conn.fileno()], [], [], 0)[0]:
                    return  # nothing from the server while it was idle: alive
                raise DisconnectionError("the server ended the pooled connection")
            cur = dbapi_conn.cursor()
            cur.execute("SELECT 1")
            cur.close()
            dbapi_conn.rollback()
        except DisconnectionError:
            raise
        except Exception as exc:
            raise DisconnectionError("the pooled connection is gone") from exc  # a new one


# The execution option of a connection whose SQLite transaction goes first through the gate.
FIRST = "emara_first"
# The execution option of a connection that only reads (``Database.read``; SQLite).
READ = "emara_read"


class Database:
    """Owns the engine; ``session()`` commits on success and rolls back on error."""

    def __init__(self, url: str, pool_size: int = 20, max_overflow: int = 10) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size, max_overflow)
        # Postgres takes a move as one statement sent from the event loop (app/db/direct.py,
        # app/tables/store_postgres.py)
        self.postgres = self.engine.dialect.name == "postgresql"
        self.direct = DirectPool(libpq_dsn(url)) if self.postgres else None
        self._factory = sessionmaker(self.engine, expire_on_commit=False)
        # Reads: on Postgres each statement on its own (autocommit), on SQLite a deferred
        # transaction outside the writer gate (``read``).
        self._reader = self.engine.execution_options(
            **({"isolation_level": "AUTOCOMMIT"} if self.postgres else {READ: True})
        )

    @contextmanager
    def session(self) -> Iterator[Session]:
        s = self._factory()
        try:
            yield s
            s.commit()
        except (OperationalError, InterfaceError) as exc:
            # A lost or terminated connection: a typed, retryable error, never a 500.
            with suppress(Exception):
                s.rollback()
            raise Unavailable("the database is unavailable, try again") from exc
        except DataError as exc:
            # A value the database refuses to store or compare (a NUL byte in an id): bad input.
            s.rollback()
            raise Malformed("the request holds characters that cannot be stored") from exc
        except BaseException:
            s.rollback()
            raise
        finally:
            s.close()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection that only reads: what a token check, a lobby, a presence list or a chat
        page looks up, with prebuilt Core statements (the cheap way: no ORM session, no
        statement built per call). On Postgres its statements run without a transaction around
        them (no BEGIN and COMMIT round trips): at the READ COMMITTED level the server runs at,
        each statement of a transaction takes a snapshot of its own anyway, so the answers are
        those a transaction would give. On SQLite it is a deferred transaction that does not
        queue at the writer gate: it reads one snapshot of the WAL file while the moves are
        written, and a write in it fails (``query_only``). Errors are mapped like
        ``session``'s."""
        try:
            with self._reader.connect() as conn:
                yield conn
        except OperationalError as exc:
            if "readonly database" in str(exc.orig):  # SQLite's query_only: a bug, not an outage
                raise RuntimeError("a read wrote: use Database.begin or session") from exc
            raise Unavailable("the database is unavailable, try again") from exc
        except InterfaceError as exc:
            raise Unavailable("the database is unavailable, try again") from exc
        except DataError as exc:
            raise Malformed("the request holds characters that cannot be stored") from exc

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """``read`` for reads written with the ORM (entities, relationships); a session left
        holding changes is a programming error."""
        with self.read() as conn:
            s = Session(bind=conn, expire_on_commit=False, autoflush=False)
            try:
                yield s
                if s.new or s.dirty or s.deleted:
                    raise RuntimeError("a read session holds changes: use Database.session")
            finally:
                s.close()

    @contextmanager
    def begin(self, first: bool = False) -> Iterator[Connection]:
        """One Core transaction (no ORM): the hot path of a move. Commits on success; errors are
        mapped like ``session``'s. ``first`` (SQLite): ahead of the transactions that wait at
        the writer gate (app/db/gate.py), as the moves' writer goes (app/tables/writer.py)."""
        try:
            with self.engine.connect() as conn:
                if first:
                    conn.execution_options(**{FIRST: True})
                with conn.begin():
                    yield conn
        except (OperationalError, InterfaceError) as exc:
            raise Unavailable("the database is unavailable, try again") from exc
        except DataError as exc:
            raise Malformed("the request holds characters that cannot be stored") from exc

    def ping(self) -> None:
        """One round trip to the database (the health check); raises when it does not answer."""
        with self.engine.connect() as c:
            c.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.engine.dispose()
