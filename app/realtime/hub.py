"""Per-process hub: who is listening to which table, and who hears of every change.

A published notice is only a hint ("table X changed: lobby | game"); each listener reloads what it
needs from the database, which is the truth. ``publish`` never waits: it wakes the local
listeners (socket queues) and hands the notice to each background subscriber (the relay to other
instances, the bot runner) through that subscriber's own queue, consumed by its own task. The
caller (a move that just committed) goes on at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from app.background import Loop

log = logging.getLogger("emara.hub")


class NoticeKind(StrEnum):
    """The kinds of notice the instances tell each other (over the relay): a shared vocabulary.
    What each kind means belongs to the feature that publishes it; a socket routes a kind to
    whoever registered for it (app/realtime/socket.py ``Notices``)."""

    LOBBY = "lobby"  # the seats or the status changed (app/tables)
    GAME = "game"  # a move (or the start): the game is at ``version`` (app/tables)
    PRESENCE = "presence"  # someone's first socket opened or last one closed (app/presence)
    CHAT = "chat"  # a chat message was stored (app/chat)
    # Every session of a profile was cut off (sign out everywhere, a recovery): ``table_id``
    # carries the profile's id. Its sockets and event streams end, on every instance.
    SIGNED_OUT = "signed_out"


# The kinds that name a table (all but SIGNED_OUT): a listener re-reads what it shows.
TABLE_NOTICES = tuple(k.value for k in NoticeKind if k is not NoticeKind.SIGNED_OUT)


@dataclass(frozen=True)
class Notice:
    table_id: str
    kind: str  # a NoticeKind value
    version: int | None = None
    # The other processes were told already (the move store's own statement notified them,
    # delivered by Postgres when it committed: app/tables/store_postgres.py): the relay does
    # not send it again.
    relayed: bool = False


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
        self.loop = Loop(name, self._run)

    def offer(self, notice: Notice) -> None:
        try:
            self.queue.put_nowait(notice)
        except asyncio.QueueFull:
            log.warning("%s: queue full, a notice for table %s dropped", self.name, notice.table_id)

    def start(self) -> None:
        if not self.loop.started:
            self.queue = asyncio.Queue(maxsize=self.maxsize)
            self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()

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
        # profile -> what ends each of its open sockets (called on a SIGNED_OUT notice)
        self._sessions: dict[str, set[Callable[[], None]]] = defaultdict(set)

    def watch_profile(self, profile_id: str, end: Callable[[], None]) -> None:
        """``end`` is called when every session of the profile is cut off, here or elsewhere."""
        self._sessions[profile_id].add(end)

    def unwatch_profile(self, profile_id: str, end: Callable[[], None]) -> None:
        ends = self._sessions.get(profile_id)
        if ends is not None:
            ends.discard(end)
            if not ends:
                del self._sessions[profile_id]

    def signed_out(self, profile_id: str) -> None:
        """Every session of the profile was cut off (after the commit): end its sockets and
        streams in this process and, through the relay, in every other."""
        self.publish(Notice(profile_id, NoticeKind.SIGNED_OUT))

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
        if notice.kind == NoticeKind.SIGNED_OUT:
            for end in list(self._sessions.get(notice.table_id, ())):
                end()
            return
        for queue in list(self._listeners.get(notice.table_id, ())):
            queue.put_nowait(notice)

    def publish(self, notice: Notice) -> None:
        """A change committed in this process: local listeners now, background subscribers
        through their queues. Never waits."""
        self.deliver(notice)
        for subscriber in self.background:
            subscriber.offer(notice)
