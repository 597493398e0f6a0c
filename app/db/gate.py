"""The writer gate of a SQLite file: its transactions in this process, one at a time, in turn.

SQLite lets one connection write at a time. Left to itself, a connection that finds the write
lock taken sleeps in SQLite's busy handler (1, 2, 5 … 100 ms, again and again) and retries: it
can keep losing to connections that arrive while it sleeps, which made a move under load wait
seconds. Through the gate, the transactions of this process queue instead and each begins
(``BEGIN IMMEDIATE``) only when the previous one has committed or rolled back.

The queue is first come, first served, with one exception: the moves' transaction asks to go
*first* (the thread that writes every move, app/tables/writer.py): their acknowledgements wait
on it, while the others are a lobby's or a socket's bookkeeping; when many
tables start at once, a move used to wait behind dozens of those. Those that go first queue among
themselves in turn, and cannot keep the others out: after ``FIRSTS_IN_A_ROW`` of them in a row
while others wait, the one that waits longest among the others goes.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import deque
from dataclasses import dataclass, field

from sqlalchemy import make_url

# Transactions that go first, handed the gate in a row while another waits, before that one.
FIRSTS_IN_A_ROW = 4

# How long a transaction on SQLite waits for the database's one writer (another thread of this
# process through the gate, or another process through SQLite's busy handler) before it fails.
SQLITE_WAIT_SECONDS = 30.0


@dataclass(eq=False)
class _Waiter:
    thread: int
    # Held from the start; the thread that leaves the gate releases it to hand the gate over.
    turn: threading.Lock = field(default_factory=threading.Lock)


class WriterGate:
    """The one transaction at a time of a SQLite file in this process.

    A thread that opens a second connection while its first holds the gate (a read nested in a
    transaction) does not queue behind itself: that transaction begins deferred.
    """

    def __init__(self, wait_seconds: float = SQLITE_WAIT_SECONDS) -> None:
        self._mutex = threading.Lock()
        self._owner: int | None = None
        self._waiting: deque[_Waiter] = deque()
        self._firsts = 0  # the waiters at the head of the queue that asked to go first
        self._passed = 0  # gates handed to those while another waited
        self.wait_seconds = wait_seconds

    def enter(self, first: bool = False) -> bool:
        """Take the gate (with ``first``, ahead of every thread that waits); False when this
        thread holds it already (nothing taken)."""
        me = threading.get_ident()
        with self._mutex:
            if self._owner == me:
                return False
            if self._owner is None:
                self._owner = me
                return True
            waiter = _Waiter(me)
            waiter.turn.acquire()
            if first:  # behind those that asked to go first before it
                self._waiting.insert(self._firsts, waiter)
                self._firsts += 1
            else:
                self._waiting.append(waiter)
        if waiter.turn.acquire(timeout=self.wait_seconds):
            return True  # handed over by ``leave`` (which made this thread the owner)
        with self._mutex:
            if self._owner == me:  # handed over as the wait ran out
                return True
            if self._waiting.index(waiter) < self._firsts:
                self._firsts -= 1
            self._waiting.remove(waiter)
        raise sqlite3.OperationalError("database is locked (writer gate)")

    @property
    def waiting(self) -> int:
        """Threads in the queue."""
        return len(self._waiting)

    def leave(self) -> None:
        """Hand the gate to the next thread in the queue (or leave it open)."""
        with self._mutex:
            if not self._waiting:
                self._owner = None
                return
            others = len(self._waiting) - self._firsts
            if self._firsts and others and self._passed >= FIRSTS_IN_A_ROW:
                waiter = self._waiting[self._firsts]  # the one of the others that waits longest
                del self._waiting[self._firsts]
                self._passed = 0
            elif self._firsts:
                waiter = self._waiting.popleft()
                self._firsts -= 1
                self._passed = self._passed + 1 if others else 0
            else:
                waiter = self._waiting.popleft()
                self._passed = 0
            self._owner = waiter.thread
            waiter.turn.release()


_GATES: dict[str, WriterGate] = {}
_GATES_LOCK = threading.Lock()


def writer_gate(url: str) -> WriterGate:
    """The gate of a SQLite file, shared by every engine of this process on that file (an
    in-memory database, private to its connection, gets one of its own)."""
    database = make_url(url).database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return WriterGate()
    key = os.path.realpath(database)
    with _GATES_LOCK:
        return _GATES.setdefault(key, WriterGate())
