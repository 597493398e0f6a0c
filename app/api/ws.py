"""WebSocket: one socket per open table, carrying moves in and redacted updates out."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from app.api.deps import token_from
from app.api.schemas import MoveIn
from app.config import Settings
from app.errors import AppError
from app.realtime.hub import Notice
from app.tables.service import TableService, Viewer

router = APIRouter()

AUTH_TIMEOUT = 10.0
CLOSE_POLICY = 1008
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TRY_AGAIN = 1013


def origin_allowed(ws: WebSocket, settings: Settings) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: browsers always send Origin on a WebSocket handshake
    origin = origin.rstrip("/")
    host = ws.headers.get("host", "")
    own = {f"http://{host}", f"https://{host}"}
    return origin in own or origin in settings.allowed_origins


class Bucket:
    """Token bucket: ``rate`` frames per second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()
        self.refused = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False


def error_frame(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}


class Connection:
    def __init__(
        self,
        ws: WebSocket,
        svc: TableService,
        settings: Settings,
        table_id: str,
        invite: str | None,
    ) -> None:
        self.ws, self.svc, self.settings = ws, svc, settings
        self.table_id, self.invite = table_id, invite
        self.outbox: asyncio.Queue[object] = asyncio.Queue()
        self.profile_id: str | None = None
        self.viewer: Viewer | None = None
        self.synced = False  # a hello has been answered
        self.version: int | None = None  # last game version sent to this socket
        self.bucket = Bucket(settings.ws_rate_per_second, settings.ws_rate_burst)
        self.last_sent = time.monotonic()

    async def send(self, frame: dict[str, Any]) -> None:
        self.last_sent = time.monotonic()
        await self.ws.send_text(orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode())

    # ---------------------------------------------------------------- lifecycle
    async def run(self) -> None:
        ws = self.ws
        if not origin_allowed(ws, self.settings):
            await ws.close(code=CLOSE_POLICY, reason="origin not allowed")
            return
        cookie_token = ws.cookies.get(self.settings.cookie_name)
        header_token = token_from(ws.headers.get("authorization"), None)
        try:
            self.profile_id = await self._profile_of(header_token or cookie_token)
        except AppError:
            await ws.close(code=CLOSE_TRY_AGAIN, reason="try again later")
            return
        await ws.accept()
        first: dict[str, Any] | None = None
        if self.profile_id is None:
            first = await self._authenticate()
            if first is None:
                return
        try:
            self.viewer = await self.svc.viewer(self.profile_id, self.table_id, self.invite)
        except AppError as exc:
            await self.send(error_frame(exc.code, exc.message))
            code = CLOSE_FORBIDDEN if exc.status == 403 else CLOSE_NOT_FOUND
            await ws.close(code=code, reason=exc.code)
            return
        await self.send(
            {
                "type": "welcome",
                "table_id": self.table_id,
                "seat": self.viewer.seat,
                "profile_id": self.profile_id,
                "heartbeat": self.settings.ws_heartbeat_seconds,
            }
        )
        self.svc.hub.subscribe(self.table_id, self.outbox)
        writer = asyncio.create_task(self._writer())
        heartbeat = asyncio.create_task(self._heartbeat())
        try:
            if first is not None and first.get("type") == "hello":
                await self._handle(first)
            await self._reader()
        except WebSocketDisconnect:
            pass
        finally:
            self.svc.hub.unsubscribe(self.table_id, self.outbox)
            for task in (heartbeat, writer):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _profile_of(self, token: str | None) -> str | None:
        pid: str | None = await self.ws.app.state.profiles.profile_for_token(token)
        return pid

    async def _authenticate(self) -> dict[str, Any] | None:
        """No cookie: the first frame carries the token (``auth``, or ``hello`` with ``token``)."""
        try:
            text = await asyncio.wait_for(self.ws.receive_text(), AUTH_TIMEOUT)
            frame = json.loads(text) if len(text) <= self.settings.ws_max_frame_bytes else None
        except (TimeoutError, json.JSONDecodeError, KeyError, RecursionError):
            frame = None
        except WebSocketDisconnect:
            return None
        token = frame.get("token") if isinstance(frame, dict) else None
        pid = await self._profile_of(token if isinstance(token, str) else None)
        if pid is None:
            await self.send(error_frame("unauthenticated", "a valid profile token is needed"))
            await self.ws.close(code=CLOSE_UNAUTHENTICATED, reason="unauthenticated")
            return None
        self.profile_id = pid
        assert isinstance(frame, dict)
        return frame

    # ---------------------------------------------------------------- inbound
    async def _reader(self) -> None:
        while True:
            msg = await self.ws.receive()
            if msg["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(msg.get("code", 1000))
            text = msg.get("text")
            if text is None:
                await self._reply(error_frame("malformed", "frames are JSON text"))
                continue
            if len(text.encode()) > self.settings.ws_max_frame_bytes:
                await self._reply(
                    error_frame(
                        "frame_too_large",
                        "frame too large",
                        limit=self.settings.ws_max_frame_bytes,
                    )
                )
                continue
            if not self.bucket.take():
                if self.bucket.refused > 10 * self.settings.ws_rate_burst:
                    await self.ws.close(code=CLOSE_POLICY, reason="rate limit")
                    return
                await self._reply(error_frame("rate_limited", "too many frames, slow down"))
                continue
            try:
                frame = json.loads(text)
            except (json.JSONDecodeError, RecursionError):  # RecursionError: too deeply nested
                frame = None
            if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
                await self._reply(error_frame("malformed", "a frame is an object with a type"))
                continue
            await self._handle(frame)

    async def _reply(self, frame: dict[str, Any] | tuple[str, Any]) -> None:
        await self.outbox.put(frame)

    async def _handle(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        ref = frame.get("ref")
        extra = {"ref": ref} if ref is not None else {}
        if kind == "ping":
            await self._reply({"type": "pong", **extra})
        elif kind == "pong" or kind == "auth":
            pass
        elif kind == "hello":
            since = frame.get("since")
            if since is not None and (not isinstance(since, int) or isinstance(since, bool)):
                await self._reply(error_frame("malformed", "since is a version number", **extra))
                return
            await self._reply(("hello", since))
        elif kind == "move":
            try:
                body = MoveIn.model_validate({k: v for k, v in frame.items() if k in MOVE_KEYS})
            except ValidationError as exc:
                details = [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()]
                await self._reply(
                    error_frame("malformed", "malformed move", details=details, **extra)
                )
                return
            assert self.viewer is not None

            async def accepted(out: dict[str, Any]) -> None:
                await self._reply({"type": "accepted", **out, **extra})

            try:
                await self.svc.submit_move(
                    self.viewer, body.move, body.expected_version, body.move_id, accepted
                )
            except AppError as exc:
                await self._reply({"type": "error", **exc.to_dict(), "move_id": body.move_id})
        else:
            await self._reply(error_frame("unknown_frame", f"unknown frame type {kind!r}"))

    # ---------------------------------------------------------------- outbound
    async def _heartbeat(self) -> None:
        """A ping whenever the socket has been silent for the heartbeat interval (a timer of its
        own, so that the writer waits on its queue alone)."""
        every = self.settings.ws_heartbeat_seconds
        while True:
            idle = time.monotonic() - self.last_sent
            if idle >= every:
                await self.outbox.put(_PING)
                idle = 0.0
            await asyncio.sleep(every - idle)

    async def _writer(self) -> None:
        while True:
            item = await self.outbox.get()
            try:
                if item is _PING:
                    await self.send({"type": "ping", "t": int(time.time())})
                elif isinstance(item, dict):
                    await self.send(item)
                elif isinstance(item, tuple) and item[0] == "hello":
                    await self._on_hello(item[1])
                elif isinstance(item, Notice):
                    await self._on_notice(item)
            except AppError as exc:
                # The database is away: say so, and try the catch-up again shortly.
                await self.send(error_frame(exc.code, exc.message))
                if not isinstance(item, dict):
                    asyncio.get_running_loop().call_later(0.2, self.outbox.put_nowait, item)

    async def _on_hello(self, since: int | None) -> None:
        await self._send_lobby()
        assert self.viewer is not None
        frame = await self.svc.catch_up(self.viewer, since, force=True)
        self.synced = True
        if frame is not None:
            self.version = frame["version"]
            await self.send(frame)

    async def _send_lobby(self) -> None:
        try:
            lobby = await self.svc.lobby(self.profile_id, self.table_id, self.invite)
            self.viewer = await self.svc.viewer(self.profile_id, self.table_id, self.invite)
        except AppError as exc:
            await self.send(error_frame(exc.code, exc.message))
            return
        await self.send({"type": "lobby", "table": lobby})

    async def _on_notice(self, notice: Notice) -> None:
        if notice.kind == "lobby":
            await self._send_lobby()
        elif notice.kind == "game" and self.synced and self.viewer is not None:
            if (
                notice.version is not None
                and self.version is not None
                and notice.version <= self.version
            ):
                return
            frame = await self.svc.catch_up(self.viewer, self.version)
            if frame is not None:
                self.version = frame["version"]
                await self.send(frame)


MOVE_KEYS = ("move", "expected_version", "move_id")
_PING = object()  # the heartbeat's item in a connection's outbox


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    svc: TableService = ws.app.state.service
    settings: Settings = ws.app.state.settings
    invite = ws.query_params.get("invite")
    await Connection(ws, svc, settings, table_id, invite).run()
