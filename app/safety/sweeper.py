"""Old reports go: a report the operator resolved or dismissed is deleted ``keep_days`` after it
was closed (docs/privacy.md). Every instance may sweep (a delete of rows past the age is the
same whoever runs it); an open report stays until the operator closes it. Time is the injected
clock; tests call ``sweep_once()``."""

from __future__ import annotations

import logging
from datetime import timedelta

from anyio import to_thread

from app.background import Loop, every
from app.clock import Clock
from app.db.session import Database
from app.safety import repository as repo

log = logging.getLogger("emara.reports")


class ReportSweeper:
    def __init__(self, db: Database, clock: Clock, keep_days: float, interval: float) -> None:
        self.db = db
        self.clock = clock
        self.keep = timedelta(days=keep_days)
        self.interval = interval
        self.loop = Loop(
            "emara-reports",
            lambda: every(self.interval, self.sweep, log, "report sweep failed; again later"),
        )

    def sweep_once(self) -> int:
        """Delete the reports closed longer ago than ``keep_days`` (a batch); how many."""
        with self.db.session() as s:
            return repo.sweep(s, self.clock.utcnow() - self.keep)

    async def sweep(self) -> int:
        gone = await to_thread.run_sync(self.sweep_once)
        if gone:
            log.info("deleted %d closed report(s) past their keeping time", gone)
        return gone

    def start(self) -> None:
        if self.interval > 0:
            self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()
