"""Engine and sessions (sync SQLAlchemy; async callers go through a thread)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import DataError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from app.errors import Malformed, Unavailable
from app.private_files import sqlite_file


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str, pool_size: int = 20, max_overflow: int = 10) -> Engine:
    # JSON columns (the snapshot, the move log) go through orjson: several times faster than the
    # standard library on the hot path, same text.
    kwargs: dict[str, Any] = {
        "future": True,
        "json_serializer": _json_dumps,
        "json_deserializer": orjson.loads,
    }
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        # A connection that died in the pool (a restarted or failed-over Postgres) is replaced
        # at checkout instead of failing the request: one short round trip per checkout.
        kwargs["pool_pre_ping"] = True
        # Enough for the worker threads that run database work (anyio's default is 40): a
        # connection opened past pool_size + max_overflow would wait, one past pool_size is
        # closed again after use, which is costly under load.
        kwargs["pool_size"] = pool_size
        kwargs["max_overflow"] = max_overflow
    sqlite_file(url)  # a new SQLite file is created owner-only before SQLite opens it
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    return engine


class Database:
    """Owns the engine; ``session()`` commits on success and rolls back on error."""

    def __init__(self, url: str, pool_size: int = 20, max_overflow: int = 10) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size, max_overflow)
        self._factory = sessionmaker(self.engine, expire_on_commit=False)

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
    def begin(self) -> Iterator[Connection]:
        """One Core transaction (no ORM): the hot path of a move. Commits on success; errors are
        mapped like ``session``'s."""
        try:
            with self.engine.begin() as conn:
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
