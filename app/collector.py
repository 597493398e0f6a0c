"""The cycle collector's policy for a long-lived server: short pauses however many sockets are open.

CPython's full collection walks every object the collector tracks. A process holding thousands
of sockets tracks about 300 objects per socket (its tasks, coroutines, protocol and buffers) and
each table's state and renders; at 1,000 tables (4,000 sockets) that is 1.2 million objects and a
full pass of about a second on a two-core machine, every 10–15 s under load — every move in
flight waits for it (docs/operations.md "The collector's pauses"). Those objects live as long as
their socket; what a move allocates dies young, almost all of it by reference counting.

So each ``freeze_seconds`` the objects alive then are moved out of the collector's walk
(``gc.freeze``: constant time, the lists are spliced), and a full pass has only what was made since
to look at. An object frozen is still freed when its last reference goes; only a reference cycle
that became garbage after it was frozen waits — for the pass every ``full_seconds``, which
unfreezes everything and collects it all once (its pause is logged with its length), then
freezes again. ``freeze_seconds`` 0 leaves the collector as Python sets it.
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Protocol

from app.background import Loop, every
from app.clock import Clock

log = logging.getLogger("emara.collector")


class Collector(Protocol):
    """The parts of ``gc`` the policy uses (a test hands a recording one)."""

    def freeze(self) -> None: ...
    def unfreeze(self) -> None: ...
    def collect(self) -> int: ...


class FreezePolicy:
    def __init__(
        self,
        clock: Clock,
        freeze_seconds: float,
        full_seconds: float,
        collector: Collector = gc,
    ) -> None:
        self.clock = clock
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.collector = collector
        self.last_full = clock.monotonic()
        self.full_passes = 0  # figures: full passes made, and the last one's length
        self.last_pause = 0.0

    @property
    def enabled(self) -> bool:
        return self.freeze_seconds > 0

    def step(self) -> None:
        """Freeze what is alive now; when ``full_seconds`` have passed since the last full
        pass, first unfreeze and collect everything once."""
        now = self.clock.monotonic()
        if now - self.last_full >= self.full_seconds:
            started = time.perf_counter()
            self.collector.unfreeze()
            found = self.collector.collect()
            self.last_pause = time.perf_counter() - started
            self.last_full = now
            self.full_passes += 1
            log.info(
                "full collection: %d unreachable objects freed in %.0f ms",
                found,
                self.last_pause * 1e3,
            )
        self.collector.freeze()


def collector_loop(policy: FreezePolicy) -> Loop:
    """The policy's steps, every ``freeze_seconds`` (start it only when ``policy.enabled``)."""

    async def step() -> None:
        policy.step()

    async def run() -> None:
        await every(policy.freeze_seconds, step, log, "a collector step failed")

    return Loop("emara-collector", run)
