"""The time the server believes it is: one injectable object, kept on ``app.state.clock``.

Sessions (expiry, renewal), rate-limit windows, the socket's rate limiter, heartbeat and send
deadline, and the idle time before a seat may be handed to a bot all read it, never ``time`` or
``datetime.now`` directly, so a test moves time forward without waiting.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Wall time: seconds since the epoch."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (durations, deadlines of this process)."""

    def utcnow(self) -> datetime:
        """Wall time as a timezone-aware UTC datetime."""


class SystemClock:
    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def utcnow(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to (tests, simulations); wall and monotonic time move
    together."""

    def __init__(self, start: float | datetime = 1_800_000_000.0) -> None:
        self._now = start.timestamp() if isinstance(start, datetime) else float(start)
        self._monotonic = 1000.0

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._monotonic

    def utcnow(self) -> datetime:
        return datetime.fromtimestamp(self._now, UTC)

    def advance(self, seconds: float) -> None:
        self._now += seconds
        self._monotonic += seconds


SYSTEM_CLOCK = SystemClock()
