"""The time the server believes it is: one injectable object with ``now()`` (epoch seconds).

Sessions (token expiry and renewal) and rate-limit windows read it, never ``time.time()``
directly, so a test moves time forward without waiting.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to (tests, simulations)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds
