"""HTTP request body limit: a body over ``max_bytes`` is refused with 413 ``body_too_large``.

A pure ASGI middleware, so it sees the body as it arrives: a declared ``Content-Length`` over the
limit is refused before anything is read; a body without one (chunked) is counted while the
application reads it, and once over the limit whatever the application would have answered is
replaced by the 413. WebSocket and lifespan scopes pass through untouched.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import BodyTooLarge


class _Over(Exception):
    pass


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        # Paths allowed a larger body than ``max_bytes`` (exact path -> limit): game records.
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        max_bytes = self.larger.get(scope.get("path", ""), self.max_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > max_bytes:
            await self._refuse(send, max_bytes)
            return
        total = 0
        over = False
        started = False

        async def limited_receive() -> Message:
            nonlocal total, over
            message = await receive()
            if message["type"] == "http.request":
                total += len(message.get("body", b""))
                if total > max_bytes:
                    over = True
                    raise _Over
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if over:
                # Whatever the application makes of the interrupted body, the answer is the 413.
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._refuse(send, max_bytes)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except _Over:
            if started:
                raise
            started = True
            await self._refuse(send, max_bytes)

    async def _refuse(self, send: Send, max_bytes: int) -> None:
        exc = BodyTooLarge(f"the request body exceeds {max_bytes} bytes", limit=max_bytes)
        body = json.dumps({"error": exc.to_dict()}).encode()
        headers: list[tuple[bytes, bytes]] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": exc.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text: Any = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None
