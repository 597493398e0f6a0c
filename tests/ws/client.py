"""A small test client for the table socket: keeps every frame it receives."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.conftest import LiveServer

TIMEOUT = 30.0


class Http:
    """Profiles and tables through the real server."""

    def __init__(self, server: LiveServer) -> None:
        self.client = httpx.Client(base_url=server.http, trust_env=False, timeout=TIMEOUT)

    def profile(self, name: str) -> dict[str, Any]:
        r = self.client.post("/api/profiles", json={"name": name})
        assert r.status_code == 201, r.text
        self.client.cookies.clear()
        return r.json()  # type: ignore[no-any-return]

    def call(self, method: str, path: str, token: str, **kw: Any) -> Any:
        r = self.client.request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
        assert r.status_code < 300, r.text
        return r.json()

    def close(self) -> None:
        self.client.close()


class Socket:
    def __init__(self, conn: ClientConnection, name: str) -> None:
        self.conn = conn
        self.name = name
        self.frames: list[dict[str, Any]] = []  # everything received, in order
        self._unread: list[dict[str, Any]] = []
        self.answer_pings = True

    @classmethod
    async def open(
        cls,
        server: LiveServer,
        table_id: str,
        name: str,
        *,
        token: str | None = None,
        cookie: str | None = None,
        invite: str | None = None,
        origin: str | None = None,
    ) -> Socket:
        url = f"{server.ws}/ws/tables/{table_id}" + (f"?invite={invite}" if invite else "")
        headers = {"Cookie": f"emara_token={cookie}"} if cookie else None
        conn = await connect(
            url,
            origin=origin,  # type: ignore[arg-type]
            additional_headers=headers,
            proxy=None,
            open_timeout=TIMEOUT,
            max_size=1 << 22,
        )
        sock = cls(conn, name)
        if token is not None:
            await sock.send({"type": "auth", "token": token})
        return sock

    async def send(self, frame: dict[str, Any]) -> None:
        await self.conn.send(json.dumps(frame))

    async def _next(self) -> dict[str, Any]:
        if self._unread:
            return self._unread.pop(0)
        raw = await asyncio.wait_for(self.conn.recv(), TIMEOUT)
        frame = json.loads(raw)
        self.frames.append(frame)
        if frame.get("type") == "ping" and self.answer_pings:
            await self.conn.send(json.dumps({"type": "pong"}))  # as the browser client does
        return frame  # type: ignore[no-any-return]

    async def expect(self, kind: str, **match: Any) -> dict[str, Any]:
        """The next frame of this type (matching the given fields); others are kept for later."""
        skipped: list[dict[str, Any]] = []
        try:
            while True:
                frame = await self._next()
                if frame.get("type") == kind and all(frame.get(k) == v for k, v in match.items()):
                    return frame
                if frame.get("type") != "ping":
                    skipped.append(frame)
        finally:
            self._unread = skipped + self._unread

    async def expect_any(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        """The next frame of any of these types; others are kept for later."""
        skipped: list[dict[str, Any]] = []
        try:
            while True:
                frame = await self._next()
                if frame.get("type") in kinds:
                    return frame
                if frame.get("type") != "ping":
                    skipped.append(frame)
        finally:
            self._unread = skipped + self._unread

    def drop_unread(self, kind: str) -> None:
        self._unread = [f for f in self._unread if f.get("type") != kind]

    async def close(self) -> None:
        await self.conn.close()
