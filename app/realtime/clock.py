"""Time, injected: the socket's rate limiter, heartbeat and send deadline read it from here."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def wall(self) -> float: ...


class SystemClock:
    """The real clock (the default; tests put their own on ``app.state.clock``)."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()


SYSTEM_CLOCK = SystemClock()
