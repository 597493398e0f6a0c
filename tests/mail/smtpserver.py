"""A real SMTP server on loopback (aiosmtpd) that keeps every message it receives; recipients of
the domains in ``stall`` are answered only once ``release`` is set (a slow domain), those in
``defer`` get a 451 (try again later)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Received:
    rcpt: list[str]
    message: EmailMessage
    raw: bytes = b""  # the bytes as they came over SMTP

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def text(self) -> str:
        body = self.message.get_body(("plain",))
        assert body is not None
        return str(body.get_content())  # type: ignore[attr-defined]


@dataclass
class Inbox:
    received: list[Received] = field(default_factory=list)
    host: str = "127.0.0.1"
    port: int = 0
    arrived: threading.Condition = field(default_factory=threading.Condition)
    stall: set[str] = field(default_factory=set)
    defer: set[str] = field(default_factory=set)
    release: threading.Event = field(default_factory=threading.Event)
    stalled: threading.Event = field(default_factory=threading.Event)  # a recipient is held

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        domain = address.rpartition("@")[2].lower()
        if domain in self.defer:
            return "451 try again later"
        if domain in self.stall:
            self.stalled.set()
            await asyncio.get_running_loop().run_in_executor(None, self.release.wait, 120.0)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=default)
        with self.arrived:
            self.received.append(
                Received(list(envelope.rcpt_tos), msg, bytes(envelope.content))  # type: ignore[arg-type]
            )
            self.arrived.notify_all()
        return "250 OK"

    def wait_for(self, address: str, count: int = 1, timeout: float = 30.0) -> Received:
        """The ``count``-th message to ``address``, waiting (on the server's signal) until it
        arrives (a server in another process sends it)."""
        with self.arrived:
            ok = self.arrived.wait_for(lambda: len(self.to(address)) >= count, timeout)
        assert ok, f"no message {count} to {address}"
        return self.to(address)[count - 1]

    def to(self, address: str) -> list[Received]:
        return [r for r in self.received if address in r.rcpt]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def smtp_server() -> Iterator[Inbox]:
    inbox = Inbox(port=free_port())
    controller = Controller(inbox, hostname=inbox.host, port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        inbox.release.set()
        controller.stop()
