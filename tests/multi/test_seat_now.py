"""Two instances on one Postgres: a socket on B acts only for the seat its profile holds now,
whatever happened on A; sign out everywhere, or signing this device out from My devices, on A
ends the device's sockets and My games event streams on B at once (the hub's relay carries the
cut-off)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.devtools.players import Player, new_player
from app.devtools.stack import server_errors

pytestmark = pytest.mark.postgres
GUARD = 30.0


async def _open(server: Any, table_id: str, who: Player) -> Any:
    ws = await connect(
        f"{server.ws_base}/ws/tables/{table_id}", additional_headers=who.headers, proxy=None
    )
    welcome = json.loads(await asyncio.wait_for(ws.recv(), GUARD))
    assert welcome["type"] == "welcome", welcome
    await ws.send(json.dumps({"type": "hello", "since": None}))
    return ws


async def _frames_until_closed(ws: Any) -> tuple[list[dict[str, Any]], int]:
    frames: list[dict[str, Any]] = []
    try:
        while True:
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), GUARD)))
    except ConnectionClosed as closed:
        assert closed.rcvd is not None
        return frames, closed.rcvd.code


def test_a_seat_left_on_a_is_lost_by_the_socket_on_b(two_servers: Any) -> None:
    a, b = two_servers
    with httpx.Client(base_url=a.base, timeout=10) as ca:
        ann, bob, cid = (new_player(ca, n) for n in ("Ann", "Bob", "Cid"))
        ca.cookies.clear()
        t = ca.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
        tid, code = t["id"], t["invite_code"]
        join = {"invite_code": code}
        assert ca.post(f"/api/tables/{tid}/join", json=join, headers=bob.headers).is_success

        async def go() -> tuple[list[dict[str, Any]], int]:
            ws = await _open(b, tid, bob)
            lobby = json.loads(await asyncio.wait_for(ws.recv(), GUARD))
            assert lobby["type"] == "lobby"
            assert ca.post(f"/api/tables/{tid}/leave", headers=bob.headers).is_success
            frames, code_ = await _frames_until_closed(ws)
            assert ca.post(f"/api/tables/{tid}/join", json=join, headers=cid.headers).is_success
            assert ca.post(f"/api/tables/{tid}/start", headers=ann.headers).is_success
            return frames, code_

        frames, closed = asyncio.run(go())
        assert closed == 4403
        assert any(f.get("code") == "seat_lost" for f in frames), frames
        assert not [f for f in frames if f["type"] in ("snapshot", "update")]
        # and the stale seat cannot be played over HTTP either: Bob holds none
        game = ca.get(f"/api/tables/{tid}/game", headers=cid.headers).json()
        r = ca.post(
            f"/api/tables/{tid}/moves",
            json={
                "move": {"kind": "end_turn"},
                "expected_version": game["version"],
                "move_id": "b",
            },
            headers=bob.headers,
        )
        assert r.status_code in (403, 404), r.text
    assert server_errors(a.log_text()) == [] and server_errors(b.log_text()) == []


@pytest.mark.parametrize("how", ["signout-everywhere", "this-device"])
def test_a_cut_off_on_a_ends_the_sockets_and_streams_on_b(two_servers: Any, how: str) -> None:
    a, b = two_servers
    with httpx.Client(base_url=a.base, timeout=10) as ca:
        r = ca.post("/api/profiles", json={"name": "Ann"})
        assert r.status_code == 201
        ann = Player(r.json()["id"], "Ann", r.json()["token"])
        ca.cookies.clear()
        tid = ca.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()["id"]
        ca.cookies.clear()

        async def go() -> tuple[int, list[bytes]]:
            ws = await _open(b, tid, ann)
            assert json.loads(await asyncio.wait_for(ws.recv(), GUARD))["type"] == "lobby"
            async with httpx.AsyncClient(base_url=b.base, timeout=GUARD) as sse:
                headers = {**ann.headers, "Accept": "text/event-stream"}
                async with sse.stream("GET", "/api/me/events", headers=headers) as stream:
                    chunks = stream.aiter_bytes()
                    first = await asyncio.wait_for(chunks.__anext__(), GUARD)
                    assert b"event: hello" in first
                    if how == "this-device":
                        devices = ca.get("/api/profiles/me/devices", headers=ann.headers).json()
                        mine = next(d for d in devices["devices"] if d["current"])
                        path = f"/api/profiles/me/devices/{mine['id']}"
                        out = ca.delete(path, headers=ann.headers)
                    else:
                        out = ca.post("/api/profiles/signout-everywhere", headers=ann.headers)
                    assert out.status_code in (200, 204), out.text
                    rest = [c async for c in chunks]  # the stream ends: the loop finishes
            _, closed = await _frames_until_closed(ws)
            return closed, rest

        closed, rest = asyncio.run(go())
        assert closed == 4401
        assert all(b"event: tables" not in c for c in rest)
    assert server_errors(a.log_text()) == [] and server_errors(b.log_text()) == []
