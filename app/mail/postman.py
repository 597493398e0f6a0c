"""Sends e-mail over SMTP (aiosmtplib): its own bounded queue, one worker task, a deadline on
every connection, a bounded number of attempts. Nothing is sent without an SMTP server.

Nothing here writes an address, a token or a link to the log: a message is known by its kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from enum import StrEnum

import aiosmtplib

from app.clock import Clock
from app.mail.compose import Outgoing, build

log = logging.getLogger("emara.mail")


class Outcome(StrEnum):
    SENT = "sent"
    RETRY = "retry"  # the server could not be reached, timed out or said 4xx
    FAILED = "failed"  # refused for good (5xx)


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    security: str  # starttls | tls | none
    user: str
    password: str
    sender: str
    timeout: float


class Postman:
    def __init__(
        self,
        config: SmtpConfig,
        clock: Clock,
        enabled: bool,
        queue_size: int = 1000,
        attempts: int = 3,
        retry_seconds: float = 30.0,
    ) -> None:
        self.config = config
        self.clock = clock
        self.enabled = enabled
        self.queue_size = queue_size
        self.attempts = attempts
        self.retry_seconds = retry_seconds
        self.queue: asyncio.Queue[Outgoing] | None = None
        self._task: asyncio.Task[None] | None = None
        self.outcomes: deque[tuple[str, Outcome]] = deque(maxlen=100)  # (kind, outcome)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self.enabled and self._task is None:
            self.queue = asyncio.Queue(maxsize=self.queue_size)
            self._task = asyncio.get_running_loop().create_task(self._run(), name="emara-mail")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def idle(self) -> None:
        """Wait until every queued message was handed to the server or given up (tests)."""
        if self.queue is not None:
            await self.queue.join()

    def post(self, message: Outgoing) -> bool:
        """Queue a message without waiting; False when mail is off or the queue is full."""
        if not self.enabled or self.queue is None:
            return False
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("mail queue full: a %s message dropped", message.kind)
            return False
        return True

    # ------------------------------------------------------------------ sending
    async def _run(self) -> None:
        assert self.queue is not None
        while True:
            message = await self.queue.get()
            try:
                await self._deliver(message)
            except Exception:
                log.exception("a %s message failed", message.kind)
            finally:
                self.queue.task_done()

    async def _deliver(self, message: Outgoing) -> None:
        for attempt in range(1, self.attempts + 1):
            outcome = await self.send(message)
            self.outcomes.append((message.kind, outcome))
            if outcome != Outcome.RETRY:
                return
            if attempt < self.attempts:
                await asyncio.sleep(self.retry_seconds * 2 ** (attempt - 1))
        log.warning("a %s message given up after %s attempts", message.kind, self.attempts)

    async def send(self, message: Outgoing) -> Outcome:
        """One SMTP transaction, within the deadline (connect, TLS, login, data)."""
        c = self.config
        msg = build(message, c.sender, self.clock.now())
        try:
            await asyncio.wait_for(
                aiosmtplib.send(
                    msg,
                    hostname=c.host,
                    port=c.port,
                    username=c.user or None,
                    password=c.password or None,
                    use_tls=c.security == "tls",
                    start_tls=c.security == "starttls",
                    timeout=c.timeout,
                ),
                timeout=c.timeout * 2,
            )
        except aiosmtplib.SMTPRecipientsRefused:
            log.warning("SMTP server refused the recipient of a %s message", message.kind)
            return Outcome.FAILED
        except aiosmtplib.SMTPResponseException as exc:
            if 400 <= exc.code < 500:
                log.info("SMTP server deferred a %s message: %s", message.kind, exc.code)
                return Outcome.RETRY
            log.warning("SMTP server refused a %s message: %s", message.kind, exc.code)
            return Outcome.FAILED
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            log.info(
                "SMTP server not reached for a %s message: %s", message.kind, type(exc).__name__
            )
            return Outcome.RETRY
        return Outcome.SENT
