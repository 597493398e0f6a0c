"""Time as the server reads it, injected: tests hand in a clock they move themselves."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from app.db.models import utcnow


class Clock(Protocol):
    def now(self) -> datetime:
        """The current moment, timezone-aware (UTC)."""


class SystemClock:
    def now(self) -> datetime:
        return utcnow()


class ManualClock:
    """A clock that moves only when told to (tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or utcnow()

    def now(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)
