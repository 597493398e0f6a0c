"""Server-sent events of My games: a line when something changed at a table the profile sits at.

The feed is a hub watcher (it hears notices published here and relayed from other instances);
a notice only names a table, so the feed looks up who sits there (remembered per table until a
lobby notice) and wakes those profiles' streams. A stream says ``event: tables`` with the table
id, the kind of change and ``waiting``, the profile's count of tables waiting for it (counted
once per profile, as ``GET /api/me/tables`` counts it): a page that shows only the count has no
need to read the list; one that shows the list reads ``GET /api/me/tables`` (with
``If-None-Match``). When the count cannot be read the event goes without it, and the page reads
the list.

Bounded: at most ``per_profile`` streams per profile (the next is refused with 429), a comment
line every ``heartbeat`` seconds keeps proxies from closing it, and a stream ends after
``max_seconds`` by the injected clock or when the server shuts down (EventSource reconnects).
Shutting down begins at the exit signal (app/exitsignal.py), before the server waits for open
responses: every stream ends then and new ones end at once, so Ctrl+C stops the server promptly
with tabs open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, defaultdict
from collections.abc import AsyncIterator, Callable

import orjson
from anyio import to_thread

from app.background import Loop
from app.clock import Clock
from app.db.session import Database
from app.errors import AppError
from app.exitsignal import ExitHook, chain
from app.mygames.service import MyGames
from app.realtime.hub import Notice, NoticeKind
from app.tables import published

log = logging.getLogger("emara.mygames")

QUEUE_SIZE = 64
REMEMBERED_TABLES = 5000


class TooManyStreams(AppError):
    status = 429
    code = "too_many_streams"


class MeFeed:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        per_profile: int = 4,
        heartbeat: float = 20.0,
        max_seconds: float = 1800.0,
    ) -> None:
        self.db = db
        self.games = MyGames(db)
        self.clock = clock
        self.per_profile = per_profile
        self.heartbeat = heartbeat
        self.max_seconds = max_seconds
        self.streams: dict[str, set[asyncio.Queue[bytes | None]]] = defaultdict(set)
        # the same streams by device session ("session:<id>"): signing one device out ends its own
        self.devices: dict[str, set[asyncio.Queue[bytes | None]]] = defaultdict(set)
        self.sitting: OrderedDict[str, list[str]] = OrderedDict()  # table -> profile ids
        self.pending: asyncio.Queue[Notice] | None = None
        # More people to wake for a table than its seats (those invited to it), each a function
        # of the table id run in a worker thread.
        self.also: list[Callable[[str], list[str]]] = []
        self.loop = Loop("emara-me", self._run)
        self.ending = False  # the server is shutting down: streams end, new ones end at once
        self.exit_hook: ExitHook | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if not self.loop.started:
            self.ending = False
            self.pending = asyncio.Queue(maxsize=10_000)
            self.loop.start()
            self.exit_hook = chain(self.end_all)

    def end_all(self) -> None:
        """The server is going: every stream ends now (the clients reconnect elsewhere or
        later), and one opened from here on ends after its hello."""
        self.ending = True
        for queues in self.streams.values():
            for q in queues:
                with contextlib.suppress(asyncio.QueueFull):
                    q.put_nowait(None)  # each stream ends

    async def stop(self) -> None:
        if self.exit_hook is not None:
            self.exit_hook.remove()
            self.exit_hook = None
        self.end_all()
        await self.loop.stop()

    # ------------------------------------------------------------------ notices
    def heard(self, notice: Notice) -> None:
        """A hub watcher: never waits; nothing to do while nobody listens. A profile signed out
        everywhere has its streams ended at once."""
        if notice.kind == NoticeKind.SIGNED_OUT:
            # the profile (everywhere), or one device ("session:<id>")
            ended = self.streams.get(notice.table_id, set()) | self.devices.get(
                notice.table_id, set()
            )
            for q in list(ended):
                with contextlib.suppress(asyncio.QueueFull):
                    q.put_nowait(None)
            return
        if notice.kind == NoticeKind.LOBBY:
            self.sitting.pop(notice.table_id, None)
        if not self.streams or self.pending is None:
            return
        with contextlib.suppress(asyncio.QueueFull):
            self.pending.put_nowait(notice)

    async def _run(self) -> None:
        assert self.pending is not None
        while True:
            notice = await self.pending.get()
            try:
                await self._wake(notice)
            except Exception:
                log.exception("my games feed failed on table %s", notice.table_id)

    async def _wake(self, notice: Notice) -> None:
        profiles = self.sitting.get(notice.table_id)
        if profiles is None:
            profiles = await to_thread.run_sync(self._who_sits, notice.table_id)
            self.sitting[notice.table_id] = profiles
            while len(self.sitting) > REMEMBERED_TABLES:
                self.sitting.popitem(last=False)
        listening = [pid for pid in profiles if self.streams.get(pid)]
        if not listening:
            return
        try:
            waiting = await to_thread.run_sync(self.games.waiting_sync, listening)
        except Exception:
            log.exception("my games feed: no count of waiting tables for table %s", notice.table_id)
            waiting = {}
        event: dict[str, object] = {
            "table_id": notice.table_id,
            "kind": notice.kind,
            "version": notice.version,
        }
        for pid in listening:
            count = {"waiting": waiting[pid]} if pid in waiting else {}
            line = event_line("tables", event | count)
            for q in list(self.streams.get(pid, ())):
                with contextlib.suppress(asyncio.QueueFull):
                    q.put_nowait(line)

    def _who_sits(self, table_id: str) -> list[str]:
        with self.db.read_session() as s:
            found = published.seated_profiles(s, table_id)
        for more in self.also:
            found.extend(pid for pid in more(table_id) if pid not in found)
        return found

    # ------------------------------------------------------------------ streams
    def open(self, profile_id: str, session_id: str = "") -> asyncio.Queue[bytes | None]:
        """Register a stream (429 beyond the cap); the caller must ``close`` it."""
        if len(self.streams.get(profile_id, ())) >= self.per_profile:
            raise TooManyStreams(
                f"at most {self.per_profile} event streams per profile", limit=self.per_profile
            )
        q: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=QUEUE_SIZE)
        self.streams[profile_id].add(q)
        if session_id:
            self.devices["session:" + session_id].add(q)
        return q

    def close(self, profile_id: str, q: asyncio.Queue[bytes | None], session_id: str = "") -> None:
        device = self.devices.get("session:" + session_id)
        if device is not None:
            device.discard(q)
            if not device:
                del self.devices["session:" + session_id]
        queues = self.streams.get(profile_id)
        if queues is not None:
            queues.discard(q)
            if not queues:
                del self.streams[profile_id]

    async def stream(
        self, profile_id: str, q: asyncio.Queue[bytes | None], session_id: str = ""
    ) -> AsyncIterator[bytes]:
        """The stream's bytes: a hello, then changes and heartbeats until its time is up."""
        began = self.clock.now()
        try:
            yield b"retry: 5000\n" + event_line("hello", {"profile_id": profile_id})
            while not self.ending and self.clock.now() - began < self.max_seconds:
                try:
                    line = q.get_nowait()
                except asyncio.QueueEmpty:
                    try:
                        line = await asyncio.wait_for(q.get(), timeout=self.heartbeat)
                    except TimeoutError:
                        yield b": heartbeat\n\n"
                        continue
                if line is None:
                    return
                yield line
        finally:
            self.close(profile_id, q, session_id)


def event_line(event: str, data: dict[str, object]) -> bytes:
    return b"event: " + event.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"
