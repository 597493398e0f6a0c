"""Sends e-mail over SMTP (aiosmtplib): a bounded schedule of messages, a pool of sender tasks,
a deadline on every message, a bounded number of attempts. Nothing is sent without an SMTP
server.

One slow message never holds up another: ``senders`` tasks send at once, at most
``per_domain`` of them to one recipient domain; every attempt ends by its deadline; an attempt
that failed for now (4xx, no answer, the deadline) is scheduled again ``retry_seconds`` later,
doubled each time, and its sender goes on with the next message instead of waiting. Retries
live in this process only: a message may carry a sign-in or confirmation link, whose token is
never stored anywhere but in its hash.

Nothing here writes an address, a token or a link to the log: a message is known by its kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiosmtplib

from app.clock import Clock
from app.mail.compose import Outgoing, build
from app.mail.schedule import Letter, Schedule

log = logging.getLogger("emara.mail")

# A sender with nothing due looks again after at most this many seconds (a retry's time on the
# injected clock may have come meanwhile; a new message wakes it at once).
LOOK_AGAIN_SECONDS = 1.0


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
        senders: int = 4,
        per_domain: int = 2,
        deadline: float = 60.0,
    ) -> None:
        self.config = config
        self.clock = clock
        self.enabled = enabled
        self.attempts = attempts
        self.retry_seconds = retry_seconds
        self.senders = senders
        self.deadline = deadline
        self.schedule = Schedule(queue_size, per_domain)
        self._tasks: list[asyncio.Task[None]] = []
        self._changed = asyncio.Event()
        self.outcomes: deque[tuple[str, Outcome]] = deque(maxlen=100)  # (kind, outcome)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self.enabled and not self._tasks:
            loop = asyncio.get_running_loop()
            self._changed = asyncio.Event()
            self._tasks = [
                loop.create_task(self._run(), name=f"emara-mail-{n}") for n in range(self.senders)
            ]

    async def stop(self) -> None:
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def wake(self) -> None:
        """Something changed (a message came, an attempt ended, the clock moved): every sender
        and ``idle`` looks again."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def idle(self) -> None:
        """Wait until no message is being sent and none waiting is due yet (tests): every one
        was sent, given up, or waits for a later attempt."""
        while self._tasks and self.schedule.due_now(self.clock.monotonic()):
            await self._changed.wait()

    def post(self, message: Outgoing) -> bool:
        """Queue a message without waiting; False when mail is off or the queue is full."""
        if not self.enabled or not self._tasks:
            return False
        if not self.schedule.put(Letter(message, self.clock.monotonic())):
            log.warning("mail queue full: a %s message dropped", message.kind)
            return False
        self.wake()
        return True

    # ------------------------------------------------------------------ sending
    async def _run(self) -> None:
        while True:
            letter = await self._take()
            try:
                await self._attempt(letter)
            except Exception:
                self.schedule.done(letter)
                log.exception("a %s message failed", letter.message.kind)
            self.wake()

    async def _take(self) -> Letter:
        while True:
            changed = self._changed
            now = self.clock.monotonic()
            letter = self.schedule.take(now)
            if letter is not None:
                return letter
            due = self.schedule.next_due()
            wait = LOOK_AGAIN_SECONDS if due is None else min(LOOK_AGAIN_SECONDS, due - now)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), max(wait, 0.0))

    async def _attempt(self, letter: Letter) -> None:
        """One attempt; a retry is scheduled (not waited for) while attempts are left."""
        message = letter.message
        letter.attempts += 1
        outcome = await self.send(message)
        self.outcomes.append((message.kind, outcome))
        if outcome == Outcome.RETRY and letter.attempts < self.attempts:
            delay = self.retry_seconds * 2 ** (letter.attempts - 1)
            self.schedule.again(letter, self.clock.monotonic() + delay)
            return
        self.schedule.done(letter)
        if outcome == Outcome.RETRY:
            log.warning("a %s message given up after %s attempts", message.kind, self.attempts)

    async def send(self, message: Outgoing) -> Outcome:
        """One SMTP transaction within the message's deadline (connect, TLS, login, data); each
        exchange within the SMTP timeout too. At the deadline the transaction is cancelled and
        left behind (its end is not waited for: the sender goes on)."""
        c = self.config
        msg = build(message, c.sender, self.clock.now())
        transaction = asyncio.ensure_future(
            aiosmtplib.send(
                msg,
                hostname=c.host,
                port=c.port,
                username=c.user or None,
                password=c.password or None,
                use_tls=c.security == "tls",
                start_tls=c.security == "starttls",
                timeout=c.timeout,
            )
        )
        done, _ = await asyncio.wait({transaction}, timeout=self.deadline)
        if not done:
            transaction.cancel()
            transaction.add_done_callback(_forget)
            log.info("SMTP transaction of a %s message past its deadline", message.kind)
            return Outcome.RETRY
        try:
            transaction.result()
        except aiosmtplib.SMTPRecipientsRefused as exc:
            if all(400 <= r.code < 500 for r in exc.recipients):
                log.info("SMTP server deferred the recipient of a %s message", message.kind)
                return Outcome.RETRY
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


def _forget(task: asyncio.Future[Any]) -> None:
    """A transaction left at its deadline: its end (cancelled, or an error) is not news."""
    if not task.cancelled():
        task.exception()
