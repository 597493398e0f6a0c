"""Per-process hub: who is listening to which table, and who hears of every change.

A published notice is only a hint ("table X changed: lobby | game"); each listener reloads what it
needs from the database, which is the truth. ``publish`` never waits: it wakes the local
listeners (socket queues) and hands the notice to each background subscriber (the relay to other
instances, the bot runner) through that subscriber's own queue, consumed by its own task. The
caller (a move that just committed) goes on at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

log = logging.getLogger("emara.hub")


class NoticeKind(StrEnum):
    LOBBY = "lobby"  # the seats or the status changed
    GAME = "game"  # a move (or the start): the game is at ``version``
    # ---- presence and chat (app/presence, app/chat): receivers re-read from the database
    PRESENCE = "presence"  # someone's first socket opened or last one closed (or ran out)
    CHAT = "chat"  # a chat message was stored


@dataclass(frozen=True)
class Notice:
    table_id: str
    kind: str  # a NoticeKind value
    version: int | None = None


class Background(Protocol):
    """A subscriber that hears every notice published in this process, off the caller's path."""

    def offer(self, notice: Notice) -> None:
        """Take the notice without waiting (queue it); never raise."""


class NoticeQueue:
    """A background subscriber: notices queue here and one task hands them to ``handler`` in
    order. A full queue drops the notice (with a warning): notices are hints. Each ``start``
    makes a new queue on the running loop (an app may be started again, on another loop)."""

    def __init__(
        self, name: str, handler: Callable[[Notice], Awaitable[None]], maxsize: int = 10_000
    ) -> None:
        self.name = name
        self.handler = handler
        self.maxsize = maxsize
        self.queue: asyncio.Queue[Notice] = asyncio.Queue(maxsize=maxsize)
        self._task: asyncio.Task[None] | None = None

    def offer(self, notice: Notice) -> None:
        try:
            self.queue.put_nowait(notice)
        except asyncio.QueueFull:
            log.warning("%s: queue full, a notice for table %s dropped", self.name, notice.table_id)

    def start(self) -> None:
        if self._task is None:
            self.queue = asyncio.Queue(maxsize=self.maxsize)
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def drained(self) -> None:
        """Wait until every queued notice has been handled (tests, shutdown)."""
        await self.queue.join()

    async def _run(self) -> None:
        while True:
            notice = await self.queue.get()
            try:
                await self.handler(notice)
            except Exception:
                log.exception("%s failed on a notice for table %s", self.name, notice.table_id)
            finally:
                self.queue.task_done()


class Hub:
    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Queue[object]]] = defaultdict(set)
        self.background: list[Background] = []
        # Called (synchronously) with every notice this process hears, local or relayed: caches
        # of what a notice changes forget it here.
        self.watchers: list[Callable[[Notice], None]] = []

    def subscribe(self, table_id: str, queue: asyncio.Queue[object]) -> None:
        self._listeners[table_id].add(queue)

    def unsubscribe(self, table_id: str, queue: asyncio.Queue[object]) -> None:
        listeners = self._listeners.get(table_id)
        if listeners is not None:
            listeners.discard(queue)
            if not listeners:
                del self._listeners[table_id]

    def listeners(self, table_id: str) -> int:
        return len(self._listeners.get(table_id, ()))

    def tables(self) -> list[str]:
        """The tables with a local listener."""
        return list(self._listeners)

    def deliver(self, notice: Notice) -> None:
        """Wake every local listener of the table (and the watchers)."""
        for watch in self.watchers:
            watch(notice)
        for queue in list(self._listeners.get(notice.table_id, ())):
            queue.put_nowait(notice)

    def publish(self, notice: Notice) -> None:
        """A change committed in this process: local listeners now, background subscribers
        through their queues. Never waits."""
        self.deliver(notice)
        for subscriber in self.background:
            subscriber.offer(notice)
