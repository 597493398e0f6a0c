"""SQLite: every move is written by the one thread that writes the queued moves (a group commit).

SQLite has one writer at a time, and a commit waits for the disk (``synchronous=FULL``: the WAL is
synced before the move is acknowledged). One transaction per move, each in a worker thread, held
the database for that sync in turn: about 500 moves a second was all a file took, whatever the
cores. Here the moves that arrive while a transaction is being written wait in a queue, and the
next transaction writes all of them: one ``BEGIN IMMEDIATE`` (through the file's writer gate,
ahead of the transactions that wait there: app/db/gate.py), the moves' log rows and updates in
three statements (app/tables/batch.py), the finish hooks of the moves that end their game (the
solo record, in the same transaction), one commit and one sync for all. A move whose update
changes nothing, or whose log row breaks the log's unique keys, leaves nothing written and is
answered ``MoveConflict``; a transaction that fails answers ``Unavailable`` to each of its moves.
Nothing is acknowledged before its commit. Every ``CHECKPOINT_MOVES`` moves, the log is copied
back into the file by a thread of its own (app/db/checkpoint.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Connection

from app.db.checkpoint import CHECKPOINT_MOVES, Checkpointer
from app.db.session import FIRST, Database
from app.errors import Unavailable
from app.realtime.hub import Notice, NoticeKind
from app.tables.batch import SQLITE_NEEDED, BatchWrite, batch_supported
from app.tables.store import FinishHook, MoveConflict, MoveWrite

log = logging.getLogger("emara.tables.writer")

# Moves written in one transaction at most (the rest wait for the next).
BATCH = 64
# The thread keeps its connection while moves keep coming; idle this long, it gives it back.
KEEP_CONNECTION_SECONDS = 1.0


@dataclass
class _Job:
    move: MoveWrite
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[Notice]


class SqliteMoves:
    """The move store of a SQLite database (app/tables/store.py): one thread that writes the
    queued moves in batches (started when first used)."""

    def __init__(self, db: Database, finished: FinishHook) -> None:
        if not batch_supported():
            raise RuntimeError(
                f"SQLite {sqlite3.sqlite_version} is too old: the moves need "
                + ".".join(map(str, SQLITE_NEEDED))
            )
        self.db = db
        self.finished = finished
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self.batches = 0  # transactions written (for tests and figures)
        # The log copied back into the file by a thread of its own (app/db/checkpoint.py)
        self.checkpointer = Checkpointer(db.engine)
        self._since_checkpoint = 0
        # The batch's statements (app/tables/batch.py)
        self._statements = BatchWrite(db.engine.dialect)

    async def store(self, move: MoveWrite) -> Notice:
        """The move committed, and its notice; ``MoveConflict`` or ``Unavailable`` (see the
        module)."""
        self._running()
        loop = asyncio.get_running_loop()
        job = _Job(move, loop, loop.create_future())
        self._jobs.put(job)
        return await job.done

    async def close(self) -> None:
        self.stop()

    def stop(self) -> None:
        """Let the thread finish what is queued and end (a later ``store`` starts it again)."""
        with self._start:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(30)
        self.checkpointer.stop()

    def _running(self) -> None:
        if self._thread is not None:
            return
        with self._start:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="emara-moves", daemon=True)
                self._thread.start()

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        # The thread's own connection, kept from one batch to the next: a checkout, its options
        # and its return to the pool for every batch were a third of a lone move's write (at
        # 1 move/s per table most batches hold one move). A batch that fails drops it.
        conn: Connection | None = None
        try:
            while True:
                # the connection is kept while moves keep coming, given back when they stop
                idle = None if conn is None else KEEP_CONNECTION_SECONDS
                try:
                    first = self._jobs.get(timeout=idle)
                except queue.Empty:
                    _closed(cast(Connection, conn))
                    conn = None
                    continue
                if first is None:
                    return
                batch = self._batch_from(first)
                if conn is None:
                    conn = self.db.engine.connect()
                    # gated: its BEGIN IMMEDIATE goes ahead of the transactions that wait
                    conn.execution_options(**{FIRST: True})
                results = self._write(conn, batch)
                if any(isinstance(r, Unavailable) for r in results):
                    _closed(conn)  # the next batch starts on a fresh one
                    conn = None
                for job, result in zip(batch, results, strict=True):
                    with contextlib.suppress(RuntimeError):  # its event loop has closed
                        job.loop.call_soon_threadsafe(_settle, job.done, result)
        finally:
            if conn is not None:
                _closed(conn)

    def _batch_from(self, first: _Job) -> list[_Job]:
        """``first`` and the moves queued behind it (``BATCH`` at most)."""
        batch = [first]
        with contextlib.suppress(queue.Empty):
            while len(batch) < BATCH:
                job = self._jobs.get_nowait()
                if job is None:
                    self._jobs.put(None)  # stop after this batch
                    break
                batch.append(job)
        return batch

    def _write(self, conn: Connection, batch: list[_Job]) -> list[Notice | Exception]:
        written: dict[int, bool] = {}
        try:
            with conn.begin():
                raw = cast(sqlite3.Connection, conn.connection.dbapi_connection)
                for jobs in _rounds(batch):
                    moves = [(j.move.advance, j.move.line) for j in jobs]
                    done = self._statements.write(raw, moves)
                    written.update(zip(map(id, jobs), done, strict=True))
                for job in batch:
                    if job.move.finished and written[id(job)]:
                        self.finished(conn, job.move.table_id)
        except Exception:  # the transaction did not commit: none of its moves is written
            log.warning("a batch of %d moves failed", len(batch), exc_info=True)
            return [Unavailable("the database is unavailable, try again") for _ in batch]
        self.batches += 1
        results: list[Notice | Exception] = [
            Notice(job.move.table_id, NoticeKind.GAME, job.move.version)
            if written[id(job)]
            else MoveConflict()
            for job in batch
        ]
        self._since_checkpoint += sum(1 for job in batch if written[id(job)])
        if self._since_checkpoint >= CHECKPOINT_MOVES:
            self._since_checkpoint = 0
            self.checkpointer.ask()
        return results


def _closed(conn: Connection) -> None:
    """Close the connection (one that broke, as it can)."""
    with contextlib.suppress(Exception):
        conn.close()


def _rounds(batch: list[_Job]) -> list[list[_Job]]:
    """The batch as rounds of moves of distinct tables, in order (a table's moves arrive one at
    a time from one process; two in one batch are written one round after the other)."""
    rounds: list[list[_Job]] = []
    tables: list[set[str]] = []
    for job in batch:
        table_id = job.move.table_id
        n = next((i for i, seen in enumerate(tables) if table_id not in seen), len(rounds))
        if n == len(rounds):
            rounds.append([])
            tables.append(set())
        rounds[n].append(job)
        tables[n].add(table_id)
    return rounds


def _settle(done: asyncio.Future[Notice], result: Notice | Exception) -> None:
    if done.done():  # (a caller that went away cancelled its wait, not the write)
        return
    if isinstance(result, Exception):
        done.set_exception(result)
    else:
        done.set_result(result)
