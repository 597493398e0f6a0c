"""Presence: who has a socket open at a table, across every instance.

Each process counts its open sockets per (table, profile). The first socket opened and the last
one closed are written to the database (a ``presence`` row per (table, profile, instance) with an
expiry; ``presence_seen`` on the close) and announced by a ``presence`` notice (table id only:
receivers, here or on another instance through the relay, re-read). A background part refreshes
this instance's rows every ``refresh_seconds`` and sweeps rows that ran out (``sweep(now)``): an
instance that dies stops refreshing, so its people turn absent within ``ttl_seconds``.
Times come from the injected clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from anyio import to_thread
from sqlalchemy import Connection

from app.background import Loop, every
from app.clock import Clock
from app.db.session import Database
from app.presence import repository as repo
from app.presence.repository import SeatPresence
from app.realtime.hub import Hub, Notice, NoticeKind

log = logging.getLogger("emara.presence")
T = TypeVar("T")


class PresenceService:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        clock: Clock,
        instance: str,
        ttl_seconds: float = 45.0,
        refresh_seconds: float = 15.0,
    ) -> None:
        self.db, self.hub, self.clock, self.instance = db, hub, clock, instance
        self.ttl = timedelta(seconds=ttl_seconds)
        self.refresh_seconds = refresh_seconds
        self.sockets: Counter[tuple[str, str]] = Counter()
        # table -> its seat list being read: the sockets of a table that one notice woke share
        # one read. A presence or seat change (a notice, here or relayed) lets the next caller
        # start a new one.
        self._reading: dict[str, asyncio.Task[list[repo.SeatPresenceLine]]] = {}
        self.reads = 0  # seat lists read from the database (for tests and figures)
        hub.watchers.append(self._changes)
        self.loop = Loop(
            "presence",
            lambda: every(self.refresh_seconds, self._tick, log, "presence refresh failed"),
        )

    # ------------------------------------------------------------------ sockets
    async def opened(self, table_id: str, profile_id: str) -> None:
        key = (table_id, profile_id)
        self.sockets[key] += 1
        if self.sockets[key] == 1:
            expires = self.clock.utcnow() + self.ttl
            await self._write(repo.hold, table_id, profile_id, self.instance, expires)
            self._changed(table_id)

    async def closed(self, table_id: str, profile_id: str) -> None:
        key = (table_id, profile_id)
        self.sockets[key] -= 1
        if self.sockets[key] <= 0:
            del self.sockets[key]
            now = self.clock.utcnow()
            await self._write(repo.release, table_id, profile_id, self.instance, now)
            self._changed(table_id)

    # ------------------------------------------------------------------ reading
    async def of_table(self, table_id: str) -> dict[str, SeatPresence]:
        return await to_thread.run_sync(self._read, repo.of_table, table_id)

    async def seats(self, table_id: str) -> list[repo.SeatPresenceLine]:
        """The ``presence`` frame's seat list: present, last seen (people's seats only). Read
        once for every caller that asks while the read is under way (and no change came)."""
        task = self._reading.get(table_id)
        if task is None:
            self.reads += 1
            task = asyncio.create_task(to_thread.run_sync(self._read, repo.seat_list, table_id))
            self._reading[table_id] = task
            task.add_done_callback(lambda done: self._read_over(table_id, done))
        # shielded: a socket that closes while it waits does not cancel the others' read
        return await asyncio.shield(task)

    def _read_over(self, table_id: str, task: asyncio.Task[list[repo.SeatPresenceLine]]) -> None:
        if self._reading.get(table_id) is task:
            del self._reading[table_id]
        if not task.cancelled():
            task.exception()  # reported to the callers that waited; nobody else needs it

    def _changes(self, notice: Notice) -> None:
        if notice.kind in (NoticeKind.PRESENCE, NoticeKind.LOBBY):
            self._reading.pop(notice.table_id, None)

    def _read(self, fn: Callable[[Connection, str], T], table_id: str) -> T:
        with self.db.read() as conn:
            return fn(conn, table_id)

    # ------------------------------------------------------------------ background
    async def refresh(self, now: datetime) -> None:
        """Extend this instance's rows (re-inserting any a sweep elsewhere removed)."""
        expires = now + self.ttl

        def work() -> None:
            with self.db.session() as s:
                repo.extend(s, self.instance, expires)
                # only rows a sweep elsewhere removed are inserted again
                for table_id, profile_id in set(self.sockets) - repo.held(s, self.instance):
                    repo.hold(s, table_id, profile_id, self.instance, expires)

        await to_thread.run_sync(work)

    async def sweep(self, now: datetime) -> set[str]:
        """Remove rows that ran out at ``now`` (any instance's); announce their tables."""

        def work() -> set[str]:
            with self.db.session() as s:
                return repo.expire(s, now)

        tables = await to_thread.run_sync(work)
        for table_id in tables:
            self._changed(table_id)
        return tables

    async def start(self) -> None:
        self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()
        with contextlib.suppress(Exception):  # a clean stop: our people are gone from here now

            def work() -> set[str]:
                with self.db.session() as s:
                    return repo.drop_instance(s, self.instance, self.clock.utcnow())

            for table_id in await to_thread.run_sync(work):
                self._changed(table_id)
        self.sockets.clear()

    async def _tick(self) -> None:
        now = self.clock.utcnow()
        await self.refresh(now)
        await self.sweep(now)

    # ------------------------------------------------------------------ helpers
    async def _write(self, fn: Callable[..., None], *args: Any) -> None:
        def work() -> None:
            with self.db.begin() as conn:
                fn(conn, *args)

        try:
            await to_thread.run_sync(work)
        except Exception:  # the database is away: the next refresh writes the row again
            log.warning("presence write failed for table %s", args[0])

    def _changed(self, table_id: str) -> None:
        self.hub.publish(Notice(table_id, NoticeKind.PRESENCE))
