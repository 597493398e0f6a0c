"""A pooled Postgres connection that the server ended while it sat in the pool is replaced at
checkout without failing the request — seen on its socket without a round trip, or by a ping
after a long idle — and a live one is used as it is (the same backend, no new connection)."""

from __future__ import annotations

import psycopg
import pytest

from app.db import session
from app.db.session import Database
from tests.conftest import need_postgres, postgres_database

pytestmark = pytest.mark.postgres


def kill_connections(url: str) -> int:
    name = url.rsplit("/", 1)[1]
    admin = url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as c:
        rows = c.execute(
            # (with a timeout it returns once the backend is gone)
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = %s",
            (name,),
        ).fetchall()
    return len(rows)


def test_an_idle_connection_that_died_is_replaced_and_a_busy_one_is_not_pinged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    need_postgres()
    with postgres_database() as url:
        db = Database(url, pool_size=1, max_overflow=0)
        try:
            db.ping()  # one connection in the pool, now idle
            assert kill_connections(url) == 1
            monkeypatch.setattr(session, "PING_IDLE_SECONDS", 0.0)  # "idle for long"
            db.ping()  # the dead connection is found at checkout and replaced: no error

            monkeypatch.setattr(session, "PING_IDLE_SECONDS", 1e9)  # "just used": no ping
            with db.begin() as conn:
                pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            with db.begin() as conn:  # alive: the same connection again
                assert conn.exec_driver_sql("SELECT pg_backend_pid()").scalar() == pid
            assert kill_connections(url) == 1
            # Ended by the server while in the pool: its socket says so, a new one is used.
            with db.begin() as conn:
                assert conn.exec_driver_sql("SELECT pg_backend_pid()").scalar() != pid
        finally:
            db.dispose()
