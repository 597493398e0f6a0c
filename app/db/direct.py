"""Statements sent from the event loop straight to Postgres through psycopg's async driver.

The database work of a request runs in a worker thread through SQLAlchemy (app/db/session.py).
For the one statement a move is on Postgres (app/tables/play.py) both cost more than the
statement: handing the work to a thread and back (a queue, a condition, a wake-up of the loop,
the GIL passed between them) and SQLAlchemy's layer around the driver (pool checkout and
reset, isolation level, the statement's execution context). Here the statement is compiled once
from its Core form, and sent, prepared, on a connection in autocommit mode held by a small pool
of the event loop's own.

A statement that fails leaves its connection closed (its state is not known); the caller's
error handling decides what the failure means (app/tables/play.py falls back to the threaded
path, which reports a lost database as ``unavailable``).
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Mapping
from contextlib import suppress
from typing import Any, cast

import orjson
import psycopg
from psycopg.types.json import Json
from sqlalchemy import JSON, Executable
from sqlalchemy.dialects.postgresql import psycopg as psycopg_dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

# Connections of one process's pool: a move holds one for one round trip, so a few carry
# thousands of moves a second.
POOL_SIZE = 8
CONNECT_TIMEOUT_SECONDS = 5


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


class Compiled:
    """A Core statement as psycopg's SQL text, and its parameters passed as SQLAlchemy passes
    them: a JSON parameter as JSON text (Python ``None`` as JSON ``null``), an enum as its
    value."""

    def __init__(self, statement: Executable) -> None:
        assert isinstance(statement, ClauseElement)
        dialect = psycopg_dialect.dialect()  # type: ignore[no-untyped-call]
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        self.sql: str = compiled.string
        self._json = frozenset(k for k, b in compiled.binds.items() if isinstance(b.type, JSON))

    def params(self, values: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in values.items():
            if key in self._json:
                value = Json(value, dumps=json_text)
            elif isinstance(value, enum.Enum):
                value = value.value
            out[key] = value
        return out


class DirectPool:
    """Up to ``size`` autocommit connections of the event loop, opened when first needed."""

    def __init__(self, dsn: str, size: int = POOL_SIZE) -> None:
        self.dsn = dsn
        self.size = size
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _bind(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:
            # First use, or a new event loop (a test's): the old loop's connections cannot be
            # used from this one.
            for conn in self._idle:
                with suppress(Exception):
                    conn.pgconn.finish()
            self._idle = []
            self._slots = asyncio.Semaphore(self.size)
            self._loop = loop
        return self._slots

    async def rows(self, statement: Compiled, values: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The rows the statement returns (it commits by itself)."""
        async with self._bind():
            conn = self._idle.pop() if self._idle else await self._connect()
            try:
                cur = await conn.execute(statement.sql, statement.params(values), prepare=True)
                rows = await cur.fetchall()
            except BaseException:
                with suppress(Exception):
                    conn.pgconn.finish()
                raise
            self._idle.append(conn)
            return rows

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(
            self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS
        )

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            with suppress(Exception):
                await conn.close()
