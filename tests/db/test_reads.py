"""``Database.read``: a read holds no transaction on Postgres and does not queue at SQLite's
writer gate; a write cannot slip into it; ``read_session`` refuses to end holding ORM changes."""

from __future__ import annotations

import threading

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import text

from app.db.gate import writer_gate
from app.db.models import Profile
from app.db.session import Database
from tests.conftest import postgres_database


@pytest.fixture
def sqlite_db(counter_db: Database) -> Database:
    return counter_db


def test_a_sqlite_read_does_not_wait_for_the_writer_gate(sqlite_db: Database) -> None:
    """While another thread holds the gate mid-transaction (its write not committed), a read
    answers at once with the last committed value, and the writer then commits as usual."""
    holding, release = threading.Event(), threading.Event()

    def writer() -> None:
        with sqlite_db.begin() as conn:
            conn.execute(text("UPDATE counter SET n = 5 WHERE id = 1"))
            holding.set()
            assert release.wait(10)

    t = threading.Thread(target=writer)
    t.start()
    try:
        assert holding.wait(10)
        assert writer_gate(sqlite_db.url).waiting == 0
        with sqlite_db.read() as conn:
            assert conn.execute(text("SELECT n FROM counter")).scalar() == 0
    finally:
        release.set()
        t.join(10)
    with sqlite_db.read() as conn:
        assert conn.execute(text("SELECT n FROM counter")).scalar() == 5


def test_a_write_in_a_sqlite_read_fails_and_the_connection_writes_again_after(
    sqlite_db: Database,
) -> None:
    with pytest.raises(RuntimeError, match="a read wrote"), sqlite_db.read() as conn:
        conn.execute(text("UPDATE counter SET n = 9 WHERE id = 1"))
    with sqlite_db.read() as conn:
        assert conn.execute(text("SELECT n FROM counter")).scalar() == 0
    # The pooled connection the read used is no longer read-only for a writer.
    for _ in range(3):
        with sqlite_db.begin() as conn:
            conn.execute(text("UPDATE counter SET n = n + 1 WHERE id = 1"))
    with sqlite_db.read() as conn:
        assert conn.execute(text("SELECT n FROM counter")).scalar() == 3
        assert conn.execute(text("PRAGMA query_only")).scalar() == 1
    with sqlite_db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA query_only")).scalar() == 0


def test_a_postgres_read_holds_no_transaction_between_its_statements() -> None:
    """No BEGIN: after each statement the connection is idle, not idle in a transaction (no
    snapshot held, no COMMIT round trip to end it), while a session's connection is."""
    with postgres_database() as url:
        db = Database(url)
        try:
            with db.read() as conn:
                conn.execute(text("SELECT 1"))
                raw = conn.connection.dbapi_connection
                assert raw is not None
                assert raw.info.transaction_status == TransactionStatus.IDLE
                conn.execute(text("SELECT 2"))
                assert raw.info.transaction_status == TransactionStatus.IDLE
            with db.session() as s:
                s.execute(text("SELECT 1"))
                raw = s.connection().connection.dbapi_connection
                assert raw is not None
                assert raw.info.transaction_status == TransactionStatus.INTRANS
        finally:
            db.dispose()


def test_a_read_session_left_holding_changes_is_refused(sqlite_db: Database) -> None:
    with (
        pytest.raises(RuntimeError, match="read session holds changes"),
        sqlite_db.read_session() as s,
    ):
        s.add(Profile(id="p1", name="x", recovery_hash="h", generation=0))
