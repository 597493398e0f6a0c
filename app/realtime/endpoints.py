"""The table socket's route: the origin check, then one ``Connection`` (app/realtime/socket.py).

What the socket serves is one part ``create_app`` registers (app/parts.py): ``Served`` (the
tables' ``Access`` and the features that send frames of their own), beside the process's socket
registry, its limits and the clock."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.bearer import token_from
from app.config import Settings
from app.parts import Parts
from app.ratelimit.address import client_address
from app.realtime.limits import SocketLimits, SocketRegistry
from app.realtime.ports import CLOSE_POLICY, Served
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


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    parts = Parts.of(ws.app)
    settings = parts.settings
    if not origin_allowed(ws, settings):
        await ws.close(code=CLOSE_POLICY, reason="origin not allowed")
        return
    served = parts.get(Served)
    header_token = token_from(ws.headers.get("authorization"), None)
    token = header_token or ws.cookies.get(settings.cookie_name)
    address = client_address(ws)  # an IPv6 client as its /64 (app/ratelimit/address.py)
    conn = Connection(
        ws,
        served.access,
        parts.get(SocketLimits),
        parts.clock,
        parts.get(SocketRegistry),
        table_id[:64],
        ws.query_params.get("invite"),
        address,
        served.companions,
    )
    await conn.run(token, presented=header_token is not None)
