"""Delivery of push messages: a bounded queue, a few send workers, a small thread pool of their
own, one deadline per message.

- **Queue**: at most ``queue`` messages wait (those waiting to be tried again included); past
  that a message is dropped and counted (``dropped``): pushes are reminders, never worth memory
  without bound.
- **Workers**: ``workers`` asyncio tasks take messages in turn, so at most that many messages
  are in flight, whatever the push services do.
- **Pool**: the blocking steps of a message (the DNS look-up, the aes128gcm encryption, the
  VAPID signature) run in a ``ThreadPoolExecutor`` of ``workers`` threads owned by this class:
  never in the worker threads that database work uses (anyio's), so a push service or a DNS
  server that hangs cannot hold a thread a move or a route needs.
- **Deadline**: one ``asyncio.timeout`` of ``deadline`` seconds covers a whole message: checking
  the endpoint, resolving it, connecting, TLS, sending and reading the reply's head (at most
  ``max_reply`` bytes, app/push/wire.py). Past it the message is tried again later.

Before each message the endpoint is judged again (app/push/endpoint.py: the allow-list, the
addresses its name resolves to now), and the connection goes to an address so judged. A
subscription whose endpoint no longer passes is removed, as is one its push service calls gone
(404/410). 429, 5xx, network failures and deadlines are tried again after a doubling pause, at
most ``attempts`` times; any other reply (redirects included: never followed) is given up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeVar

from anyio import to_thread
from py_vapid import Vapid02

from app.background import Loop
from app.clock import Clock
from app.push import wire
from app.push.endpoint import (
    BadPushEndpoint,
    Endpoint,
    PushPolicy,
    Resolver,
    Unresolvable,
    addresses,
    parse,
    system_resolver,
)
from app.push.store import Target

log = logging.getLogger("emara.push")
T = TypeVar("T")

JWT_SECONDS = 12 * 3600
PUSH_TTL_SECONDS = 24 * 3600
RECENT = 100  # outcomes kept in ``sent`` (tests, and a glance in a debugger)


class Outcome(StrEnum):
    SENT = "sent"
    GONE = "gone"  # 404/410: the subscription no longer exists (removed)
    REFUSED = "refused"  # the endpoint no longer passes the checks (removed)
    RETRY = "retry"  # 429, 5xx, network, deadline: try again later
    FAILED = "failed"  # any other reply: give up


@dataclass(frozen=True)
class PushLimits:
    workers: int = 4
    queue: int = 1000
    deadline: float = 10.0
    max_reply: int = 8192
    attempts: int = 3
    retry_seconds: float = 5.0


@dataclass(frozen=True)
class Job:
    target: Target
    data: str
    attempt: int = 1


def outcome_of(status: int) -> Outcome:
    if 200 <= status < 300:
        return Outcome.SENT
    if status in (404, 410):
        return Outcome.GONE
    if status == 429 or status >= 500:
        return Outcome.RETRY
    return Outcome.FAILED


class Delivery:
    def __init__(
        self,
        remove: Callable[[int], None],
        vapid: Vapid02,
        subject: str,
        clock: Clock,
        policy: PushPolicy,
        limits: PushLimits,
        resolve: Resolver = system_resolver,
        connect: wire.Connector = wire.open_stream,
    ) -> None:
        self.remove = remove  # a subscription by id (database work)
        self.vapid = vapid
        self.subject = subject
        self.clock = clock
        self.policy = policy
        self.limits = limits
        self.resolve = resolve
        self.connect = connect
        self.pool: ThreadPoolExecutor | None = None
        self.queue: asyncio.Queue[Job] = asyncio.Queue(maxsize=limits.queue)
        self.workers: list[Loop] = []
        self.retries: set[asyncio.Task[None]] = set()
        self.dropped = 0
        self.sent: list[tuple[str, Outcome]] = []  # (endpoint, outcome) of recent messages
        self.running = False

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self.running:
            return
        self.running = True
        self.queue = asyncio.Queue(maxsize=self.limits.queue)
        self.workers = [Loop(f"emara-push-{n}", self._work) for n in range(self.limits.workers)]
        for worker in self.workers:
            worker.start()

    async def stop(self) -> None:
        self.running = False
        retries = list(self.retries)
        for task in retries:
            task.cancel()
        for worker in self.workers:
            await worker.stop()
        for task in retries:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.workers, self.retries = [], set()
        if self.pool is not None:
            # A look-up still blocked in the resolver ends on its own; nobody waits for it.
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    async def idle(self) -> None:
        """Wait until no message waits, is tried again later, or is in flight (tests)."""
        while True:
            await self.queue.join()  # every message taken from the queue is handled
            if not self.retries:
                return
            await asyncio.gather(*list(self.retries), return_exceptions=True)

    @property
    def waiting(self) -> int:
        return self.queue.qsize() + len(self.retries)

    def offer(self, job: Job) -> bool:
        """Queue a message; False (and counted in ``dropped``) when the queue is full."""
        if not self.running or self.waiting >= self.limits.queue:
            self.dropped += 1
            if self.running:
                log.warning("push queue full (%s): a message dropped", self.limits.queue)
            return False
        self.queue.put_nowait(job)
        return True

    # ------------------------------------------------------------------ the workers
    async def _work(self) -> None:
        while True:
            job = await self.queue.get()
            try:
                await self._handle(job)
            except Exception:
                log.exception("push delivery failed")
            finally:
                self.queue.task_done()

    async def _handle(self, job: Job) -> None:
        outcome = await self.send(job.target, job.data)
        self.sent.append((job.target.endpoint, outcome))
        del self.sent[:-RECENT]
        if outcome in (Outcome.GONE, Outcome.REFUSED):
            await to_thread.run_sync(self.remove, job.target.id)  # database work
        elif outcome == Outcome.RETRY:
            if job.attempt < self.limits.attempts:
                self._retry_later(replace(job, attempt=job.attempt + 1))
            else:
                log.warning("push to %s given up after %s attempts", _origin(job), job.attempt)

    def _retry_later(self, job: Job) -> None:
        delay = self.limits.retry_seconds * 2 ** (job.attempt - 2)

        async def later() -> None:
            await asyncio.sleep(delay)
            self.retries.discard(task)
            self.offer(job)

        task = asyncio.get_running_loop().create_task(later())
        self.retries.add(task)

    async def _in_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking work in the push pool (made on first use; never anyio's threads)."""
        if self.pool is None:
            self.pool = ThreadPoolExecutor(self.limits.workers, thread_name_prefix="emara-push")
        future: Awaitable[T] = asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        return await future

    async def admit(self, url: str) -> None:
        """Judge a new subscription's endpoint: BadPushEndpoint unless it passes every check,
        its name resolving now (in the push pool, within the deadline) to public addresses."""
        endpoint = parse(url, self.policy)
        try:
            async with asyncio.timeout(self.limits.deadline):
                await self._in_pool(addresses, endpoint, self.resolve)
        except (Unresolvable, TimeoutError):
            raise BadPushEndpoint("the push endpoint's host does not resolve") from None

    # ------------------------------------------------------------------ one message
    async def send(self, target: Target, data: str) -> Outcome:
        """One message to one subscription, within the deadline."""
        try:
            async with asyncio.timeout(self.limits.deadline):
                endpoint = parse(target.endpoint, self.policy)
                where = await self._in_pool(addresses, endpoint, self.resolve)
                headers, body = await self._in_pool(self._sealed, target, endpoint, data)
                status = await wire.post(
                    endpoint, where, headers, body, self.limits.max_reply, self.connect
                )
        except BadPushEndpoint as exc:
            log.warning("push endpoint %s dropped: %s", _origin(target), exc.message)
            return Outcome.REFUSED
        except TimeoutError:
            log.info("push to %s: no answer within %ss", _origin(target), self.limits.deadline)
            return Outcome.RETRY
        except (Unresolvable, OSError, wire.BadReply) as exc:
            log.info("push to %s failed: %s", _origin(target), type(exc).__name__)
            return Outcome.RETRY
        outcome = outcome_of(status)
        if outcome == Outcome.FAILED:
            log.warning("push refused by %s: %s", _origin(target), status)
        return outcome

    def _sealed(
        self, target: Target, endpoint: Endpoint, data: str
    ) -> tuple[dict[str, str], bytes]:
        """The encrypted body (aes128gcm) and the headers, VAPID signature included (a pool
        thread: elliptic-curve work)."""
        # Imported on the first push, not at start: pywebpush brings aiohttp, a quarter of a
        # second of every server process's start for a server that may never send a push.
        from pywebpush import WebPusher

        subscription = {
            "endpoint": target.endpoint,
            "keys": {"p256dh": target.p256dh, "auth": target.auth},
        }
        body = WebPusher(subscription).encode(data.encode(), "aes128gcm")["body"]
        claims: dict[str, str | int] = {
            "sub": self.subject,
            "aud": endpoint.origin,
            "exp": int(self.clock.now()) + JWT_SECONDS,
        }
        headers = {
            "Content-Type": "application/octet-stream",
            "Content-Encoding": "aes128gcm",
            "TTL": str(PUSH_TTL_SECONDS),
            **self.vapid.sign(claims),
        }
        return headers, bytes(body)


def _origin(what: Job | Target) -> str:
    target = what.target if isinstance(what, Job) else what
    try:
        return parse(target.endpoint, PushPolicy((), True)).origin
    except BadPushEndpoint:
        return "(an endpoint)"
