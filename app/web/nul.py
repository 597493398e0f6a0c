"""A NUL character in a request's path or query string is refused before any route runs: HTTP
gets a 422 ``malformed`` (a page path its own ``400 bad_path``), a socket handshake is closed
(1008) before it is accepted.

No text holding a NUL can be stored or compared by Postgres; refused here, such an id, invite
code or name never takes a database connection. Request bodies are checked by their models
(app/strict.py), socket frames by app/realtime/frames.py. A pure ASGI middleware: one linear
look at the path and the query string."""

from __future__ import annotations

import json
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import Malformed
from app.strict import NUL, NUL_MESSAGE

CLOSE_POLICY = 1008


def nul_in_target(scope: Scope) -> bool:
    """Whether the request's path or its query string (percent-decoded) holds a NUL."""
    if NUL in scope.get("path", ""):
        return True
    raw: bytes = scope.get("raw_path") or b""
    query: bytes = scope.get("query_string") or b""
    return b"\x00" in unquote_to_bytes(raw) or b"\x00" in unquote_to_bytes(query)


class NulGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        page = scope["type"] == "http" and not scope.get("path", "").startswith("/api/")
        if scope["type"] not in ("http", "websocket") or page or not nul_in_target(scope):
            # (a page path answers `400 bad_path` itself and takes no connection)
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # the handshake's websocket.connect
            await send({"type": "websocket.close", "code": CLOSE_POLICY, "reason": "malformed"})
            return
        exc = Malformed(f"the path or query: {NUL_MESSAGE}")
        body = json.dumps({"error": exc.to_dict()}).encode()
        headers: list[tuple[bytes, bytes]] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": exc.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
