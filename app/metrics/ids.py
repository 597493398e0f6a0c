"""A request id for every HTTP request and a socket id for every WebSocket, made by the server
(never taken from the client), for the log lines written while it is served (app/metrics/logs.py).
An HTTP answer carries its id in ``X-Request-ID``, so that a person's report can be matched to
the server's lines."""

from __future__ import annotations

import secrets
from contextvars import ContextVar

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
SOCKET_ID: ContextVar[str | None] = ContextVar("socket_id", default=None)
HEADER = "X-Request-ID"


def new_id() -> str:
    return secrets.token_hex(8)


class ConnectionIds:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            token = SOCKET_ID.set(new_id())
            try:
                await self.app(scope, receive, send)
            finally:
                SOCKET_ID.reset(token)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = new_id()

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[HEADER] = request_id
            await send(message)

        token = REQUEST_ID.set(request_id)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            REQUEST_ID.reset(token)
