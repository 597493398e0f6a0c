"""One background loop: a named asyncio task started once and stopped with a bounded wait.

Every long-lived part of the process (the deadline sweeper, presence, the hub's queues, Web Push
delivery, the My games feed) runs its loop through ``Loop``: ``start`` creates the task once
(a second start while it runs does nothing), ``stop`` cancels it and waits at most
``stop_timeout`` seconds, and a loop that ends with an exception is logged under its name — it
is not restarted behind anyone's back. ``every`` is the body of a periodic loop: wait, do one
step, log a failed step and go on. The time between steps is the caller's (its injected clock
decides what a step does; the interval is only how often to look).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("emara.background")

STOP_TIMEOUT_SECONDS = 5.0


class Loop:
    def __init__(
        self,
        name: str,
        run: Callable[[], Awaitable[None]],
        stop_timeout: float = STOP_TIMEOUT_SECONDS,
    ) -> None:
        self.name = name
        self.run = run
        self.stop_timeout = stop_timeout
        self._task: asyncio.Task[None] | None = None

    @property
    def started(self) -> bool:
        """Started and not stopped (a loop that crashed stays started: nothing restarts it)."""
        return self._task is not None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the loop in the running event loop (once: a started loop is left alone)."""
        if self._task is None:
            task = asyncio.get_running_loop().create_task(self._body(), name=self.name)
            task.add_done_callback(self._ended)
            self._task = task

    async def _body(self) -> None:
        await self.run()

    def _ended(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("background loop %s crashed", self.name, exc_info=error)

    async def stop(self) -> None:
        """Cancel the loop and wait for it to end, at most ``stop_timeout`` seconds."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=self.stop_timeout)
        if not done:
            log.error("background loop %s did not stop within %ss", self.name, self.stop_timeout)


async def every(
    interval: float,
    step: Callable[[], Awaitable[object]],
    logger: logging.Logger,
    failed: str,
) -> None:
    """Forever: wait ``interval`` seconds, run ``step``; a step that raises is logged as
    ``failed`` and the next one runs at the next interval."""
    while True:
        await asyncio.sleep(interval)
        try:
            await step()
        except Exception:
            logger.exception(failed)
