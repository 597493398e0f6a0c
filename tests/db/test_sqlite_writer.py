"""The embedded SQLite database: its settings, and write transactions from many threads taking
turns through the process's writer gate instead of failing or spinning in the busy handler."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from app.db.gate import writer_gate
from app.db.session import SQLITE_SWITCH_INTERVAL, Database


@pytest.fixture
def db(counter_db: Database) -> Database:
    return counter_db


def test_the_file_runs_in_wal_mode_and_syncs_every_commit(db: Database) -> None:
    with db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        # 2 = FULL: the log reaches the disk at each commit, before a move is acknowledged.
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_threads_hand_the_interpreter_over_often_with_sqlite(db: Database) -> None:
    """A thread back from SQLite (a statement, the commit's fsync) gets the GIL within half a
    millisecond instead of 5, so the writer gate is not held waiting for it."""
    assert sys.getswitchinterval() <= SQLITE_SWITCH_INTERVAL


def test_a_transaction_holds_the_write_lock_from_its_begin(db: Database, tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: a transaction that has only read yet already excludes other writers, so
    its later write can never find its snapshot stale ("database is locked" at once, no retry)."""
    import sqlite3

    with db.begin() as conn:
        conn.execute(text("SELECT n FROM counter")).scalar()
        other = sqlite3.connect(tmp_path / "emara.db", timeout=0, isolation_level=None)
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        finally:
            other.close()


def test_concurrent_read_then_write_transactions_all_commit(db: Database) -> None:
    """Eight threads each add one fifty times, reading the value and writing it back in one
    transaction: every transaction commits (none is refused as locked) and no addition is lost."""
    threads, rounds = 8, 50
    failures: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def add() -> None:
        barrier.wait()
        for _ in range(rounds):
            try:
                with db.begin() as conn:
                    n = conn.execute(text("SELECT n FROM counter WHERE id = 1")).scalar_one()
                    conn.execute(text("UPDATE counter SET n = :n WHERE id = 1"), {"n": n + 1})
            except Exception as exc:
                failures.append(exc)

    workers = [threading.Thread(target=add) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    assert not any(w.is_alive() for w in workers)
    assert failures == []
    with db.begin() as conn:
        assert conn.execute(text("SELECT n FROM counter")).scalar_one() == threads * rounds


def test_a_failed_transaction_hands_the_gate_on(db: Database) -> None:
    with pytest.raises(RuntimeError), db.begin() as conn:
        conn.execute(text("UPDATE counter SET n = 7"))
        raise RuntimeError("the move was refused")
    # the refused write was rolled back, and the next one goes through
    assert in_another_thread(db) == [1]


def in_another_thread(db: Database) -> list[int]:
    """Add one in a transaction of a new thread; the value read back (empty: it did not get
    through)."""
    seen: list[int] = []

    def write() -> None:
        with db.begin() as conn:
            conn.execute(text("UPDATE counter SET n = n + 1"))
            seen.append(conn.execute(text("SELECT n FROM counter")).scalar_one())

    t = threading.Thread(target=write)
    t.start()
    t.join(60)
    return seen


def test_a_read_nested_in_a_transaction_of_the_same_thread_does_not_wait_on_itself(
    db: Database,
) -> None:
    with db.begin() as outer:
        outer.execute(text("UPDATE counter SET n = 5"))
        with db.engine.connect() as inner:
            # Its own snapshot: the outer transaction has not committed yet.
            assert inner.execute(text("SELECT n FROM counter")).scalar_one() == 0
    # Both connections handed the gate back: another thread gets through.
    assert in_another_thread(db) == [6]


def test_a_connection_returned_without_commit_hands_the_gate_on(db: Database) -> None:
    with db.engine.connect() as conn:  # autobegins, returned to the pool with a rollback
        assert conn.execute(text("SELECT n FROM counter")).scalar_one() == 0
    assert in_another_thread(db) == [1]


def test_engines_on_one_file_share_its_gate(tmp_path: Path) -> None:
    """Two engines of one process on one file queue on one gate (not on SQLite's busy handler);
    another file has its own."""
    url = f"sqlite:///{tmp_path / 'emara.db'}"
    assert writer_gate(url) is writer_gate(f"sqlite:///{tmp_path / '.' / 'emara.db'}")
    assert writer_gate(url) is not writer_gate(f"sqlite:///{tmp_path / 'other.db'}")


def test_the_log_is_copied_back_by_the_checkpoint_thread_not_in_a_commit(
    db: Database, tmp_path: Path
) -> None:
    """SQLite's own checkpoint waits for the backstop's page count; asked, the thread copies
    the committed log into the file (which grows to hold it) outside any transaction."""
    from app.db.checkpoint import AUTOCHECKPOINT_PAGES, Checkpointer

    with db.engine.connect() as conn:
        assert conn.execute(text("PRAGMA wal_autocheckpoint")).scalar() == AUTOCHECKPOINT_PAGES
    with db.begin() as conn:
        conn.execute(text("CREATE TABLE blob (id INTEGER PRIMARY KEY, b TEXT NOT NULL)"))
        for i in range(200):
            conn.execute(text("INSERT INTO blob VALUES (:i, :b)"), {"i": i, "b": "x" * 4000})
    file = tmp_path / "emara.db"
    before = file.stat().st_size
    checkpointer = Checkpointer(db.engine)
    checkpointer.ask()
    checkpointer.stop()  # (the checkpoint asked for runs first)
    assert checkpointer.runs == 1
    assert file.stat().st_size > before + 200 * 4000
    import sqlite3

    conn = sqlite3.connect(file, isolation_level=None)
    try:  # nothing of the log is left to copy
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and frames == copied
    finally:
        conn.close()


def test_a_move_s_transaction_goes_ahead_of_those_that_wait(db: Database) -> None:
    """``begin(first=True)`` (a move played in a worker thread) takes the gate before the
    transactions already waiting for it."""
    from tests.db.test_gate import in_turn

    gate = writer_gate(db.url)

    def write(name: str, first: bool, order: list[str]) -> None:
        with db.begin(first=first) as conn:
            conn.execute(text("UPDATE counter SET n = n + 1"))
            order.append(name)

    gate.enter()
    assert in_turn(gate, [("lobby", False), ("move", True)], write) == ["move", "lobby"]
