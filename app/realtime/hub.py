"""Per-process hub: who is listening to which table.

A published notice is only a hint ("table X changed: lobby | game"); each listener reloads what it
needs from the database, which is the truth. That keeps the door open for a cross-instance relay
(Postgres LISTEN/NOTIFY): a relay forwards local notices out and calls ``deliver`` for notices that
arrive from other instances.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Notice:
    table_id: str
    kind: str  # "lobby" | "game"
    version: int | None = None


class Relay(Protocol):
    async def send(self, notice: Notice) -> None: ...


class Hub:
    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Queue[object]]] = defaultdict(set)
        self.relays: list[Relay] = []
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

    def deliver(self, notice: Notice) -> None:
        """Wake every local listener of the table."""
        for watch in self.watchers:
            watch(notice)
        for queue in list(self._listeners.get(notice.table_id, ())):
            queue.put_nowait(notice)

    async def publish(self, notice: Notice) -> None:
        self.deliver(notice)
        for relay in self.relays:
            await relay.send(notice)
