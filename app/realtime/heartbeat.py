"""One heartbeat for every table socket of the process: a single task that ticks each open
socket every step (a ping to a quiet one, a close for a silent or stuck one), instead of a task
and a timer per socket. An idle socket costs one ``tick`` call a step; the task runs only while
sockets are open, on the loop that serves them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

log = logging.getLogger("emara.socket")


class Ticking(Protocol):
    def tick(self) -> None: ...


class Heartbeat:
    def __init__(self) -> None:
        self._sockets: dict[Ticking, float] = {}  # socket -> its step in seconds
        self._task: asyncio.Task[None] | None = None
        self.ticks = 0  # sockets ticked so far (for figures)

    def __len__(self) -> int:
        return len(self._sockets)

    def add(self, socket: Ticking, step: float) -> None:
        self._sockets[socket] = step
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def remove(self, socket: Ticking) -> None:
        self._sockets.pop(socket, None)

    async def _run(self) -> None:
        while self._sockets:
            await asyncio.sleep(min(self._sockets.values()))
            for socket in list(self._sockets):
                try:
                    socket.tick()
                except Exception:
                    log.exception("a socket's heartbeat failed")
                self.ticks += 1
        self._task = None

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
