"""Mail abuse figures (not a test): does a stranger's message to a slow domain hold up another
person's sign-in link, and what does a queue of such messages cost the server?

    .venv/bin/python -m bench.abuse_mail                # the default senders, then one sender
    .venv/bin/python -m bench.abuse_mail --stall 60 --load 50 --senders 4

Starts a loopback SMTP server (aiosmtpd) where every recipient of ``slow.example`` is answered
only after ``--stall`` seconds and any other at once, a Postgres database and one uvicorn process
(app/devtools/stack.py) sending to it. Then: Ada confirms ``ada@example.org``; a stranger asks
for a confirmation link to ``eve@slow.example`` (the server's sender is held at that recipient);
a sign-in link is asked for Ada's address, and the time until it reaches the SMTP server is the
**delay**. ``/api/health`` is timed idle, and again while ``--load`` more strangers' messages to
the slow domain wait or are held. The rate limits are lifted (all requests come from
127.0.0.1): this measures the sending, not the budgets. The server runs from the checkout whose
``app`` the script imports (with ``-m`` from a checkout's root: that checkout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import tempfile
import threading
import time
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

import httpx
from aiosmtpd.controller import Controller

from app.devtools.stack import ServerProcess, TempDatabase, free_port

SLOW = "slow.example"
ADA = "ada@example.org"
LINK = re.compile(r"/email/(confirm|signin)#([A-Za-z0-9_.-]+)")
OPEN_LIMITS = {
    "EMARA_RATE_PROFILE_CREATE": "100000/minute",
    "EMARA_RATE_EMAIL_SEND": "100000/minute",
    "EMARA_RATE_EMAIL_SIGNIN_STRANGERS": "100000/minute",
}


class StallingSmtp:
    """Keeps every message with the time it arrived; holds ``slow.example`` recipients."""

    def __init__(self, stall: float) -> None:
        self.stall = stall
        self.port = free_port()
        self.arrived: list[tuple[float, list[str], str]] = []
        self.held = threading.Event()
        self.lock = threading.Condition()

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if address.endswith("@" + SLOW):
            self.held.set()
            await asyncio.sleep(self.stall)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=default)
        body = msg.get_body(("plain",))
        text = str(body.get_content()) if body is not None else ""  # type: ignore[attr-defined]
        with self.lock:
            self.arrived.append((time.monotonic(), list(envelope.rcpt_tos), text))
            self.lock.notify_all()
        return "250 OK"

    def wait_for(self, address: str, count: int, timeout: float) -> tuple[float, str]:
        def mine() -> list[tuple[float, list[str], str]]:
            return [a for a in self.arrived if address in a[1]]

        with self.lock:
            ok = self.lock.wait_for(lambda: len(mine()) >= count, timeout)
        if not ok:
            raise TimeoutError(f"no message {count} to {address} in {timeout} s")
        at, _, text = mine()[count - 1]
        return at, text


def percentiles(samples: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return q[49], q[98]


async def health(c: httpx.AsyncClient, n: int) -> tuple[float, float]:
    took = []
    for _ in range(n):
        t0 = time.perf_counter()
        r = await c.get("/api/ready")
        took.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, r.text
    return percentiles(took)


async def stranger_to_slow_domain(c: httpx.AsyncClient, n: int) -> None:
    me = (await c.post("/api/profiles", json={"name": f"Eve{n}"})).json()
    c.cookies.clear()
    r = await c.post(
        "/api/email",
        json={"address": f"eve{n}@{SLOW}"},
        headers={"Authorization": f"Bearer {me['token']}"},
    )
    assert r.status_code == 202, r.text


async def slow_smtp(
    stall: float = 60.0, senders: int | None = None, load: int = 50, samples: int = 200
) -> dict[str, float]:
    """One run: the sign-in link's delay behind a held message, /api/health p50/p99 (ms) idle
    and with ``load`` messages to the slow domain waiting or held."""
    smtp = StallingSmtp(stall)
    controller = Controller(smtp, hostname="127.0.0.1", port=smtp.port)
    controller.start()
    out: dict[str, float] = {"stall_seconds": stall}
    try:
        with TempDatabase("emara_mail") as db, tempfile.TemporaryDirectory() as tmp:
            server = ServerProcess(db.url, Path(tmp) / "server.log")
            server.env = {
                **OPEN_LIMITS,
                "EMARA_SMTP_HOST": "127.0.0.1",
                "EMARA_SMTP_PORT": str(smtp.port),
                "EMARA_SMTP_SECURITY": "none",
                "EMARA_PUBLIC_URL": server.base,
                **({"EMARA_EMAIL_SENDERS": str(senders)} if senders else {}),
            }
            with server:
                async with httpx.AsyncClient(
                    base_url=server.base, timeout=stall * 3, trust_env=False
                ) as c:
                    ada = (await c.post("/api/profiles", json={"name": "Ada"})).json()
                    c.cookies.clear()
                    auth = {"Authorization": f"Bearer {ada['token']}"}
                    r = await c.post("/api/email", json={"address": ADA}, headers=auth)
                    assert r.status_code == 202, r.text
                    _, text = await asyncio.to_thread(smtp.wait_for, ADA, 1, 60)
                    ((_, token),) = LINK.findall(text)
                    assert (await c.post("/api/email/confirm", json={"token": token})).is_success
                    out["health_idle_p50_ms"], out["health_idle_p99_ms"] = await health(c, samples)
                    await stranger_to_slow_domain(c, 0)
                    assert await asyncio.to_thread(smtp.held.wait, 60)
                    t0 = time.monotonic()
                    r = await c.post("/api/email/signin-link", json={"address": ADA})
                    assert r.status_code == 202, r.text
                    at, _ = await asyncio.to_thread(smtp.wait_for, ADA, 2, stall * 3)
                    out["signin_link_delay_s"] = at - t0
                    for n in range(1, load + 1):
                        await stranger_to_slow_domain(c, n)
                    p50, p99 = await health(c, samples)
                    out["health_loaded_p50_ms"], out["health_loaded_p99_ms"] = p50, p99
                    out["slow_messages_queued"] = float(load + 1)
    finally:
        controller.stop()
    return out


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stall", type=float, default=60.0)
    ap.add_argument("--load", type=int, default=50)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--senders", type=int, default=0, help="0: the default, then one sender")
    args = ap.parse_args()
    runs: dict[str, dict[str, float]] = {}
    if args.senders:
        runs[f"senders={args.senders}"] = await slow_smtp(
            args.stall, args.senders, args.load, args.samples
        )
    else:
        runs["default senders"] = await slow_smtp(args.stall, None, args.load, args.samples)
        runs["one sender"] = await slow_smtp(args.stall, 1, args.load, args.samples)
    print(json.dumps(runs, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
