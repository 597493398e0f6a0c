"""Statements sent from the event loop straight to Postgres, through libpq itself.

The database work of a request runs in a worker thread through SQLAlchemy (app/db/session.py).
For the one statement a move is on Postgres (app/tables/play.py) both cost more than the
statement: handing the work to a thread and back (a queue, a condition, a wake-up of the loop,
the GIL passed between them) and SQLAlchemy's layer around the driver (pool checkout and
reset, isolation level, the statement's execution context). Here the statement is compiled once
from its Core form, prepared once per connection, and sent with its parameters as text on a
connection in autocommit mode held by a small pool of the event loop's own.

The statement goes through psycopg's libpq binding (``psycopg.pq``) rather than its cursors: a
cursor's execution (its generators, the query conversion, the dumpers looked up for each
parameter) cost more than the libpq calls themselves (``bench/direct.py``: 176 against 131 µs of
CPU per move's statement, its parameters and the state's JSON included). The connection is
psycopg's, opened and closed by it; while the pool holds it nothing else uses it.

A statement that fails leaves its connection closed (its state is not known) and raises
psycopg's error for it (a unique violation as ``psycopg.errors.UniqueViolation``); the caller's
error handling decides what the failure means (app/tables/play.py falls back to the threaded
path, which reports a lost database as ``unavailable``).
"""

from __future__ import annotations

import asyncio
import enum
import hashlib
import re
from collections.abc import Mapping
from contextlib import suppress
from datetime import datetime
from typing import Any, cast

import orjson
import psycopg
from psycopg import pq
from psycopg.errors import error_from_result
from sqlalchemy import JSON, Executable
from sqlalchemy.dialects.postgresql import psycopg as psycopg_dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

# Connections of one process's pool: a move holds one for one round trip, so a few carry
# thousands of moves a second.
POOL_SIZE = 8
CONNECT_TIMEOUT_SECONDS = 5

_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")


def libpq_dsn(url: str) -> str:
    """``postgresql+psycopg://u@h:5432/db`` (SQLAlchemy form) → ``postgresql://u@h:5432/db``."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    return scheme.split("+", 1)[0] + "://" + rest


def json_text(value: Any) -> str:
    """A JSON column's text, as every engine of the app writes it (app/db/session.py uses it
    too): orjson, several times faster than the standard library, same text."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def param_text(value: Any) -> bytes | None:
    """A parameter in Postgres's text format (None: SQL NULL); an enum as its value."""
    kind = type(value)
    if value is None:
        return None
    if kind is str:
        if "\x00" in value:
            # libpq would end the text there; psycopg refuses it the same way
            raise psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return cast(str, value).encode()
    if kind is bool:
        return b"true" if value else b"false"
    if kind is int:
        return b"%d" % value
    if kind is float:
        return repr(value).encode()
    if isinstance(value, datetime):
        # ISO 8601; with its offset when it has one (the app's are aware, in UTC)
        return value.isoformat().encode()
    if isinstance(value, enum.Enum):
        return param_text(value.value)
    raise TypeError(f"no text form for a parameter of type {kind.__name__}")


class Compiled:
    """A Core statement as Postgres takes it: its text with numbered parameters (``$1``…), their
    names in that order, and the name it is prepared under. Parameters are passed as
    SQLAlchemy passes them: a JSON parameter as JSON text (Python ``None`` as JSON ``null``),
    an enum as its value."""

    def __init__(self, statement: Executable) -> None:
        assert isinstance(statement, ClauseElement)
        dialect = psycopg_dialect.dialect()  # type: ignore[no-untyped-call]
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        names: list[str] = []

        def number(found: re.Match[str]) -> str:
            name = found.group(1)
            if name is None:
                return "%"
            if name not in names:
                names.append(name)
            return f"${names.index(name) + 1}"

        self.sql: str = _PLACEHOLDER.sub(number, compiled.string)
        self.names: tuple[str, ...] = tuple(names)
        self.name: bytes = b"emara_" + hashlib.sha256(self.sql.encode()).hexdigest()[:20].encode()
        self._json = frozenset(k for k, b in compiled.binds.items() if isinstance(b.type, JSON))

    def params(self, values: Mapping[str, Any]) -> list[bytes | None]:
        """The parameters in order, in text form (a name the statement has must be given)."""
        json = self._json
        return [
            orjson.dumps(values[name], option=orjson.OPT_NON_STR_KEYS)
            if name in json
            else param_text(values[name])
            for name in self.names
        ]


class _Link:
    """One pooled connection: psycopg's, used through its libpq handle, and the statements
    prepared on it."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn
        self.pg = conn.pgconn
        self.pg.nonblocking = 1
        self.prepared: set[bytes] = set()

    async def count(self, statement: Compiled, values: Mapping[str, Any]) -> int:
        """Run the statement; the number of rows it returns."""
        pg = self.pg
        if statement.name not in self.prepared:
            pg.send_prepare(statement.name, statement.sql.encode())
            await self._result(pq.ExecStatus.COMMAND_OK)
            self.prepared.add(statement.name)
        pg.send_query_prepared(statement.name, statement.params(values))
        return (await self._result(pq.ExecStatus.TUPLES_OK)).ntuples

    async def _result(self, expected: pq.ExecStatus) -> pq.abc.PGresult:
        """The result of what was sent, read to its end; psycopg's error for a failure."""
        pg = self.pg
        while pg.flush():  # 1: the socket took part of it, more to send
            # (what the server sends meanwhile is read, so that neither side waits on the other)
            if await self._ready(write=True):
                pg.consume_input()
        result: pq.abc.PGresult | None = None
        while True:
            pg.consume_input()
            while not pg.is_busy():
                got = pg.get_result()
                if got is None:
                    if result is None:
                        raise psycopg.OperationalError("the server sent no result")
                    if result.status != expected:
                        raise error_from_result(result)
                    return result
                if result is None:  # one statement, one result
                    result = got
            await self._ready(write=False)

    async def _ready(self, write: bool) -> bool:
        """Until the connection's socket can be read, or (``write``) read or written; True when
        it can be read."""
        loop = asyncio.get_running_loop()
        fd = self.pg.socket
        done: asyncio.Future[bool] = loop.create_future()

        def stop() -> None:
            loop.remove_reader(fd)
            if write:
                loop.remove_writer(fd)

        def ready(readable: bool) -> None:
            stop()
            if not done.done():
                done.set_result(readable)

        loop.add_reader(fd, ready, True)
        if write:
            loop.add_writer(fd, ready, False)
        try:
            return await done
        except BaseException:
            stop()
            raise

    def finish(self) -> None:
        with suppress(Exception):
            self.pg.finish()


class DirectPool:
    """Up to ``size`` autocommit connections of the event loop, opened when first needed."""

    def __init__(self, dsn: str, size: int = POOL_SIZE) -> None:
        self.dsn = dsn
        self.size = size
        self._idle: list[_Link] = []
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _bind(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:
            # First use, or a new event loop (a test's): the old loop's connections cannot be
            # used from this one.
            for link in self._idle:
                link.finish()
            self._idle = []
            self._slots = asyncio.Semaphore(self.size)
            self._loop = loop
        return self._slots

    async def count(self, statement: Compiled, values: Mapping[str, Any]) -> int:
        """The number of rows the statement returns (it commits by itself)."""
        async with self._bind():
            link = self._idle.pop() if self._idle else await self._connect()
            try:
                n = await link.count(statement, values)
            except BaseException:
                link.finish()
                raise
            self._idle.append(link)
            return n

    async def _connect(self) -> _Link:
        conn = await psycopg.AsyncConnection.connect(
            self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS
        )
        return _Link(conn)

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for link in idle:
            with suppress(Exception):
                await link.conn.close()
