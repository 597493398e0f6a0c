"""Cross-instance hints over Postgres LISTEN/NOTIFY.

Several server processes may share one Postgres database. Each process keeps its own hub of
sockets; when one process commits a move it also sends a NOTIFY on one channel, and every other
process, listening on that channel, hears "table T is now at version V" and tells its own hub to
catch its sockets up *from the database*. The notification is only a hint: it carries no game
data, it may arrive late, twice, or (while a listener is reconnecting) not at all, and the database
stays the truth. After a reconnect the listener calls ``on_resync`` so the hub can re-read the
versions of every table it serves and close any gap.

Two ways to publish, both safe to mix:

- inside the writer's own statement or transaction (``encode_hint``'s payload; a move's statement
  does so, app/tables/store_postgres.py, and ``notify_statement`` is the same for a SQLAlchemy
  transaction). Postgres delivers it only if and when that commits, so a hint can never announce
  a move that was rolled back ("commit first, broadcast after" for free).
- ``PgNotifier.publish(table_id, version)`` or the relay's queue (``HubRelay``) send the hint from
  the listener's own connection after the caller's commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from app.db.direct import libpq_dsn

log = logging.getLogger("emara.notify")

CHANNEL = "emara_tables"
# Postgres limits a NOTIFY payload to 8000 bytes; ours is a few dozen.
_MAX_PAYLOAD = 7900

# on_hint(table_id, version, kind): version may be None ("look again"), kind "game" | "lobby".
HintHandler = Callable[[str, int | None, str], Awaitable[None] | None]
ResyncHandler = Callable[[], Awaitable[None] | None]


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql", "postgres:"))


def encode_hint(table_id: str, version: int | None, origin: str, kind: str = "game") -> str:
    hint = {"t": str(table_id), "v": None if version is None else int(version), "o": origin}
    if kind != "game":
        hint["k"] = kind
    payload = orjson.dumps(hint).decode()  # (a hint per move: orjson, a tenth of json's cost)
    if len(payload) > _MAX_PAYLOAD:  # pragma: no cover - ids are short
        raise ValueError("notify payload too large")
    return payload


def decode_hint(payload: str) -> tuple[str, int | None, str, str] | None:
    """Parse a hint → (table_id, version, origin, kind); anything malformed gives None."""
    try:
        data = json.loads(payload)
        table_id, version = data["t"], data["v"]
        origin, kind = data.get("o", ""), data.get("k", "game")
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if not isinstance(table_id, str) or not table_id or kind not in KINDS:
        return None
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        return None
    return table_id, version, str(origin), kind


# The notice kinds a hint may carry (app/realtime/hub.py NoticeKind).
KINDS = ("game", "lobby", "presence", "chat", "signed_out")


# One id per process: a process ignores its own hints (its hub already broadcast locally).
INSTANCE_ID = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"


def notify_statement(
    table_id: str, version: int, *, channel: str = CHANNEL, origin: str | None = None
) -> Any:
    """A statement for the move's own transaction; delivered by Postgres on commit only."""
    from sqlalchemy import text

    return text("SELECT pg_notify(:channel, :payload)").bindparams(
        channel=channel, payload=encode_hint(table_id, version, origin or INSTANCE_ID)
    )


class PgNotifier:
    """Listens on the channel in a background task and hands hints to ``on_hint``.

    ``on_hint(table_id, version)`` is called for hints from *other* processes (own hints are
    skipped unless ``include_own``). Handlers may be plain functions or coroutines; an exception
    in a handler is logged and does not stop the listener. The listener reconnects with backoff
    when its connection drops (a restarted Postgres, ``pg_terminate_backend``) and then calls
    ``on_resync``, because hints sent while it was away are lost.
    """

    def __init__(
        self,
        database_url: str,
        on_hint: HintHandler,
        *,
        on_resync: ResyncHandler | None = None,
        channel: str = CHANNEL,
        include_own: bool = False,
        max_backoff: float = 5.0,
        origin: str | None = None,
    ) -> None:
        self.dsn = libpq_dsn(database_url)
        self.on_hint = on_hint
        self.on_resync = on_resync
        self.channel = channel
        self.include_own = include_own
        self.max_backoff = max_backoff
        self.origin = origin or INSTANCE_ID
        self.connected = asyncio.Event()
        self.received = 0
        self.reconnects = 0
        self._task: asyncio.Task[None] | None = None
        self._conn: Any = None
        self._pub_conn: Any = None
        self._pub_lock = asyncio.Lock()
        self._stopping = False

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self, wait: float | None = 5.0) -> None:
        """Start listening; wait (bounded) until LISTEN is in place so no early hint is missed."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="emara-notify-listener")
        if wait:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.connected.wait(), wait)

    async def stop(self) -> None:
        self._stopping = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for attr in ("_conn", "_pub_conn"):
            conn = getattr(self, attr)
            setattr(self, attr, None)
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self.connected.clear()

    # -- publishing --------------------------------------------------------------------------

    async def publish(self, table_id: str, version: int | None, kind: str = "game") -> bool:
        """Send a hint after the caller committed. Best effort: returns False on failure (the
        other processes then catch up on their next hint or resync), never raises."""
        import psycopg

        payload = encode_hint(table_id, version, self.origin, kind)
        async with self._pub_lock:
            for _attempt in range(2):
                try:
                    if self._pub_conn is None or self._pub_conn.closed:
                        self._pub_conn = await psycopg.AsyncConnection.connect(
                            self.dsn, autocommit=True, connect_timeout=5
                        )
                    await self._pub_conn.execute(
                        "SELECT pg_notify(%s, %s)", (self.channel, payload)
                    )
                    return True
                except Exception as exc:  # a dropped connection: reconnect once
                    log.warning("notify publish failed: %s", type(exc).__name__)
                    with contextlib.suppress(Exception):
                        if self._pub_conn is not None:
                            await self._pub_conn.close()
                    self._pub_conn = None
        return False

    # -- listening ---------------------------------------------------------------------------

    async def _run(self) -> None:
        import psycopg

        backoff = 0.1
        first = True
        while not self._stopping:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.dsn, autocommit=True, connect_timeout=5
                )
                self._conn = conn
                async with conn:
                    await conn.execute(f'LISTEN "{self.channel}"')
                    self.connected.set()
                    backoff = 0.1
                    if not first:
                        self.reconnects += 1
                        log.info("notify listener reconnected; resyncing")
                        await self._call(self.on_resync)
                    first = False
                    async for note in conn.notifies():
                        await self._dispatch(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._stopping:
                    break
                log.warning("notify listener lost its connection (%s)", type(exc).__name__)
            finally:
                self.connected.clear()
                self._conn = None
            if self._stopping:
                break
            first = False
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, self.max_backoff)

    async def _dispatch(self, payload: str) -> None:
        hint = decode_hint(payload)
        if hint is None:
            log.warning("ignored a malformed notify payload")
            return
        table_id, version, origin, kind = hint
        if origin == self.origin and not self.include_own:
            return
        self.received += 1
        await self._call(self.on_hint, table_id, version, kind)

    async def _call(self, handler: Callable[..., Any] | None, *args: Any) -> None:
        if handler is None:
            return
        try:
            result = handler(*args)
            if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
                await result
        except Exception:
            log.exception("notify handler failed")


class HubRelay:
    """Joins a process's hub to the others: local notices go out as hints, hints from other
    processes come in as notices (each socket then reloads from the database).

    Publishing never delays the caller: notices are queued and a sender task sends them, several
    per round trip when they pile up. After the listener reconnects, every table with local
    listeners gets a "look again" notice, since hints sent meanwhile were lost.
    """

    def __init__(
        self, hub: Any, database_url: str, *, max_batch: int = 64, channel: str = CHANNEL
    ) -> None:
        self.hub = hub
        self.max_batch = max_batch
        self.notifier = PgNotifier(
            database_url, self._on_hint, on_resync=self._on_resync, channel=channel
        )
        self._queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=10_000)
        self._sender: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self not in self.hub.background:
            self.hub.background.append(self)
        await self.notifier.start()
        self._queue = asyncio.Queue(maxsize=10_000)  # on this loop (an app may start again)
        self._sender = asyncio.create_task(self._send_loop(), name="emara-notify-sender")

    async def stop(self) -> None:
        if self in self.hub.background:
            self.hub.background.remove(self)
        if self._sender is not None:
            # Flush what is queued (bounded), then stop.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), 2.0)
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
            self._sender = None
        await self.notifier.stop()

    async def send(self, notice: Any) -> None:
        self.offer(notice)

    async def sent(self) -> None:
        """Wait until every hint offered so far has been sent (tests)."""
        await self._queue.join()

    def offer(self, notice: Any) -> None:
        """The hub hands a local notice over: queued for the sender task, never waited on (not
        one a move's own statement sent already: app/tables/store_postgres.py)."""
        if getattr(notice, "relayed", False):
            return
        try:
            self._queue.put_nowait(notice)
        except asyncio.QueueFull:  # other processes resync on their own later hints
            log.warning("notify queue full; hint dropped")

    async def _send_loop(self) -> None:
        import psycopg

        n = self.notifier
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self.max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            payloads = [
                encode_hint(x.table_id, x.version, n.origin, getattr(x, "kind", "game"))
                for x in batch
            ]
            try:
                for _attempt in range(2):
                    try:
                        if n._pub_conn is None or n._pub_conn.closed:
                            n._pub_conn = await psycopg.AsyncConnection.connect(
                                n.dsn, autocommit=True, connect_timeout=5
                            )
                        sql = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(payloads))
                        params: list[str] = []
                        for p in payloads:
                            params += [n.channel, p]
                        await n._pub_conn.execute(sql, params)
                        break
                    except Exception as exc:
                        log.warning("notify send failed: %s", type(exc).__name__)
                        with contextlib.suppress(Exception):
                            if n._pub_conn is not None:
                                await n._pub_conn.close()
                        n._pub_conn = None
            finally:
                for _ in batch:
                    self._queue.task_done()

    def _on_hint(self, table_id: str, version: int | None, kind: str) -> None:
        from app.realtime.hub import Notice

        self.hub.deliver(Notice(table_id, kind, version))

    def _on_resync(self) -> None:
        """Hints may have been lost while the relay was away: every local table hears every
        kind of table notice, so each listener looks again at what it shows."""
        from app.realtime.hub import TABLE_NOTICES, Notice

        for table_id in self.hub.tables():
            for kind in TABLE_NOTICES:
                self.hub.deliver(Notice(table_id, kind))


def relay_for(hub: Any, database_url: str, channel: str = CHANNEL) -> HubRelay | None:
    """A relay when the database is Postgres (several processes may share it), else None."""
    if not is_postgres_url(database_url):
        return None
    return HubRelay(hub, database_url, channel=channel)
