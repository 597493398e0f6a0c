"""JSON log lines (``EMARA_LOG_FORMAT=json``): each written for a request or a socket carries its
id, and none holds a token, a cookie, a code from the query or an e-mail address; a client's IP
address only when the operator asks for it."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import websockets

from app.metrics.logs import JsonLines
from tests.conftest import LiveServer

CANARIES = (
    "canary-query-token",
    "canary-invite",
    "canary-bearer",
    "canary-cookie",
    "canary-ws",
    "canary-frame-token",
)


@contextlib.contextmanager
def captured(names: tuple[str, ...]) -> Iterator[io.StringIO]:
    """What the installed handlers of these loggers write, at INFO, into one buffer."""
    buffer = io.StringIO()
    restore: list[Any] = []
    for name in names:
        logger = logging.getLogger(name)
        restore.append((logger, logger.level))
        logger.setLevel(logging.INFO)
        for handler in logger.handlers:
            assert isinstance(handler, logging.StreamHandler)
            assert isinstance(handler.formatter, JsonLines)  # installed at start-up
            restore.append((handler, handler.setStream(buffer)))
    try:
        yield buffer
    finally:
        for thing, value in reversed(restore):
            if isinstance(thing, logging.Logger):
                thing.setLevel(value)
            else:
                thing.setStream(value)


def lines(buffer: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]


def test_json_lines_carry_ids_and_no_credentials(live_factory: Any) -> None:
    live: LiveServer = live_factory(log_format="json")
    with captured(("uvicorn", "uvicorn.error", "uvicorn.access")) as buffer:
        with httpx.Client(base_url=live.http, cookies={"emara_token": "canary-cookie"}) as c:
            r = c.get(
                "/api/profiles/me?token=canary-query-token&invite=canary-invite",
                headers={"Authorization": "Bearer canary-bearer"},
            )
        assert r.status_code == 401

        async def socket() -> None:
            url = f"{live.ws}/ws/tables/nosuchtable?invite=canary-ws"
            async with websockets.connect(url) as ws:
                # a first frame with a token that is nobody's: refused at once (without a frame
                # the server waits the auth timeout, 10 s, for one)
                await ws.send(json.dumps({"type": "auth", "token": "canary-frame-token"}))
                await ws.recv()

        with contextlib.suppress(websockets.ConnectionClosed):
            asyncio.run(socket())
    out = buffer.getvalue()
    for canary in CANARIES:
        assert canary not in out
    assert "127.0.0.1" not in out  # client addresses only when enabled
    got = lines(buffer)
    request = next(x for x in got if x["msg"] == "request" and x["path"] == "/api/profiles/me")
    assert request["request_id"] == r.headers["X-Request-ID"]
    assert request["status"] == 401 and request["method"] == "GET"
    assert request["query"] == ["token", "invite"]
    accepted = next(x for x in got if x["msg"] == "socket accepted")
    assert len(accepted["socket_id"]) == 16 and "request_id" not in accepted
    assert accepted["query"] == ["invite"]


def test_client_addresses_and_mail_addresses_in_lines() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d', None, None
    )
    record.args = ("192.0.2.4:5000", "GET", "/api/x?code=123", "1.1", 200)
    assert "192.0.2.4" not in JsonLines().format(record)
    assert json.loads(JsonLines(client_addresses=True).format(record))["client"] == "192.0.2.4:5000"
    mail = logging.LogRecord(
        "emara.mail", logging.WARNING, __file__, 1, "to %s: refused", ("ann@example.org",), None
    )
    line = json.loads(JsonLines().format(mail))
    assert "ann@example.org" not in line["msg"] and line["level"] == "warning"
