"""The deadline sweeper: finds the tables whose stored deadline has passed and hands each seat
whose time ran out to a bot of the table's ``timeout_bot_level``.

Exactly one process acts on an expired deadline, however many instances sweep: on Postgres the
rows are claimed with ``SELECT … FOR UPDATE SKIP LOCKED`` (another sweeper skips them), and on
every database the table's update is conditional on the deadline it saw (``WHERE deadline =
:seen``), so a deadline a move or another sweeper changed is left alone. The claim, the seat's
hand-over, the clock, ``seats_version`` and the pace log line commit in ONE transaction: a
process killed in the middle leaves everything as it was, and the next sweep acts once.
The sweeper's time is the injected clock; tests call ``sweep_once(now)`` directly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from anyio import to_thread
from sqlalchemy import Connection

from app.background import Loop, every
from app.clock import Clock
from app.db.session import Database
from app.pace import clock as pc
from app.pace.events import PaceEventKind, PaceEventParams, add_event
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import deadline_repository as deadline_repo
from app.tables import published

log = logging.getLogger("emara.pace")

SWEEP_INTERVAL_SECONDS = 2.0
SWEEP_BATCH = 50


@dataclass(frozen=True)
class TimedOut:
    """A seat handed to a bot because its time ran out (after the commit)."""

    table_id: str
    seat: int
    profile_id: str
    level: str
    version: int


class Sweeper:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        clock: Clock,
        interval: float = SWEEP_INTERVAL_SECONDS,
        batch: int = SWEEP_BATCH,
    ) -> None:
        self.db = db
        self.hub = hub
        self.clock = clock
        self.interval = interval
        self.batch = batch
        # Hear every hand-over after its commit (Web Push queues a message).
        self.listeners: list[Callable[[TimedOut], None]] = []
        self.loop = Loop(
            "emara-sweeper",
            lambda: every(
                self.interval,
                self.sweep,
                log,
                "deadline sweep failed; trying again at the next one",
            ),
        )
        self.postgres = db.engine.dialect.name == "postgresql"

    # ------------------------------------------------------------------ one sweep
    def sweep_once(self, now: float | None = None) -> list[TimedOut]:
        """Act on every expired deadline (up to ``batch`` tables) in one transaction."""
        now = self.clock.now() if now is None else now
        done: list[TimedOut] = []
        with self.db.begin() as conn:
            for row in deadline_repo.expired_deadlines(conn, now, self.batch, self.postgres):
                done.extend(self._act(conn, row, now))
        return done

    def _act(self, conn: Connection, row: Any, now: float) -> list[TimedOut]:
        blob = cast(pc.ClockBlob | None, row.clock)
        seats = published.seat_holders(conn, row.id)
        humans = {x.seat for x in seats if x.bot_level is None and x.profile_id}
        if blob is None:
            expired: list[int] = []
        else:
            expired = pc.expired(blob, humans, now)
        if not expired:
            # The deadline no longer holds (a bot took the seat, say): store the right one.
            deadline_repo.store_deadline(
                conn, row.id, row.deadline, pc.table_deadline(blob, humans)
            )
            return []
        assert blob is not None
        after = pc.timed_out(blob, expired, now)
        deadline = pc.table_deadline(after, humans.difference(expired))
        if not deadline_repo.claim_deadline(conn, row.id, row.deadline, after, deadline):
            return []  # another process or a move got there first
        level = str((row.options or {}).get("timeout_bot_level", "greedy"))
        at = datetime.fromtimestamp(now, UTC)
        out = []
        by_seat = {x.seat: x for x in seats}
        for seat in expired:
            if not deadline_repo.hand_seat_to_bot(conn, row.id, seat, level):
                continue
            holder = by_seat[seat]
            params: PaceEventParams = {"seat": seat, "name": holder.name, "level": level}
            add_event(conn, row.id, PaceEventKind.SEAT_TIMED_OUT, seat, params, at)
            out.append(TimedOut(row.id, seat, str(holder.profile_id), level, row.version))
        return out

    async def sweep(self, now: float | None = None) -> list[TimedOut]:
        """One sweep in a worker thread, then the notices (after the commit)."""
        done = await to_thread.run_sync(self.sweep_once, now)
        self.announce(done)
        return done

    def announce(self, done: list[TimedOut]) -> None:
        for table_id in sorted({d.table_id for d in done}):
            version = max(d.version for d in done if d.table_id == table_id)
            # The seats changed (sockets reload, caches forget); the game notice wakes the bot.
            self.hub.publish(Notice(table_id, NoticeKind.LOBBY))
            self.hub.publish(Notice(table_id, NoticeKind.GAME, version))
        for d in done:
            for listener in self.listeners:
                try:
                    listener(d)
                except Exception:
                    log.exception("a hand-over listener failed")

    # ------------------------------------------------------------------ background part
    def start(self) -> None:
        self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()
