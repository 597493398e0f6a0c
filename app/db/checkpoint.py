"""SQLite: the write-ahead log copied back into the database file by a thread of its own.

In WAL mode a commit appends to the log; a *checkpoint* copies the log's pages into the database
file and syncs it. SQLite runs one by itself inside the commit that takes the log past
``wal_autocheckpoint`` pages, and that commit returns only when the copy and its sync are done:
under load one commit in a few hundred took 40-60 ms instead of 1, holding the writer gate
(app/db/gate.py) all along, and every move queued behind it waited as long.

A passive checkpoint needs no write lock: it copies what is committed while writers go on. The
moves' writer (app/tables/writer.py) counts the moves it commits and asks this thread for one
every ``CHECKPOINT_MOVES``; requests made while one runs are merged. SQLite's own checkpoint
stays as a backstop, at ``AUTOCHECKPOINT_PAGES`` (app/db/session.py sets it): a process that
writes little checkpoints as before, and the log stays bounded if this thread falls behind.
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine

log = logging.getLogger("emara.db.checkpoint")

# Moves committed between two checkpoints (each writes a few pages of log: its table row, its
# log row and their indexes).
CHECKPOINT_MOVES = 256
# SQLite's own checkpoint, in the commit that takes the log past this many pages (its default
# is 1,000): rarely reached while the checkpoint thread runs.
AUTOCHECKPOINT_PAGES = 10_000


class Checkpointer:
    """One thread that runs a passive checkpoint of a SQLite file when asked (started when
    first asked)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._asked = threading.Condition()
        self._pending = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self.runs = 0  # checkpoints run (for tests and figures)

    def ask(self) -> None:
        """A checkpoint soon (one that is asked for while another runs follows it)."""
        with self._asked:
            self._pending = True
            if self._thread is None:
                self._stopping = False
                self._thread = threading.Thread(
                    target=self._run, name="emara-checkpoint", daemon=True
                )
                self._thread.start()
            self._asked.notify()

    def stop(self) -> None:
        """End the thread once the checkpoint asked for is run (a later ``ask`` starts it)."""
        with self._asked:
            thread, self._thread = self._thread, None
            self._stopping = True
            self._asked.notify()
        if thread is not None:
            thread.join(30)

    def _run(self) -> None:
        while True:
            with self._asked:
                while not self._pending and not self._stopping:
                    self._asked.wait()
                if not self._pending:
                    return
                self._pending = False
            self._checkpoint()

    def _checkpoint(self) -> None:
        pooled = self.engine.raw_connection()
        try:
            conn = pooled.dbapi_connection
            assert conn is not None
            # (outside a transaction: it takes no write lock, nor the writer gate)
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.runs += 1
        except Exception:  # a failed checkpoint is retried by the next, or by SQLite's own
            log.warning("a checkpoint failed", exc_info=True)
        finally:
            pooled.close()
