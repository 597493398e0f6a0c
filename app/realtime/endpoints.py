"""The table socket's route: the origin check, then one ``Connection`` (app/realtime/socket.py).

What the socket serves is registered on ``app.state`` by ``create_app``: ``socket_access`` (the
tables' ``Access``) and ``socket_companions`` (the features that send frames of their own)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.bearer import token_from
from app.clock import SYSTEM_CLOCK, Clock
from app.config import Settings
from app.ratelimit.address import client_address
from app.realtime.limits import SocketLimits, SocketRegistry
from app.realtime.ports import CLOSE_POLICY, Access
from app.realtime.socket import Connection

router = APIRouter()


def origin_allowed(ws: WebSocket, settings: Settings) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: browsers always send Origin on a WebSocket handshake
    origin = origin.rstrip("/")
    host = ws.headers.get("host", "")
    own = {f"http://{host}", f"https://{host}"}
    return origin in own or origin in settings.allowed_origins


def _shared(ws: WebSocket) -> tuple[Access, SocketRegistry, SocketLimits, Clock]:
    """The process's socket state, made on first use and kept on ``app.state``."""
    state = ws.app.state
    if getattr(state, "socket_registry", None) is None:
        state.socket_registry = SocketRegistry()
        state.socket_limits = SocketLimits.from_settings(state.settings)
    clock: Clock = getattr(state, "clock", None) or SYSTEM_CLOCK
    return state.socket_access, state.socket_registry, state.socket_limits, clock


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    settings: Settings = ws.app.state.settings
    if not origin_allowed(ws, settings):
        await ws.close(code=CLOSE_POLICY, reason="origin not allowed")
        return
    access, registry, limits, clock = _shared(ws)
    header_token = token_from(ws.headers.get("authorization"), None)
    token = header_token or ws.cookies.get(settings.cookie_name)
    address = client_address(ws)  # an IPv6 client as its /64 (app/ratelimit/address.py)
    conn = Connection(
        ws,
        access,
        limits,
        clock,
        registry,
        table_id[:64],
        ws.query_params.get("invite"),
        address,
        getattr(ws.app.state, "socket_companions", ()),
    )
    await conn.run(token, presented=header_token is not None)
