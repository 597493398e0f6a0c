"""Presence and chat across two server processes on one Postgres: a person connected to A is
shown present to a seat on B, absent after their last socket closes; a message sent through A
reaches B's sockets exactly once. (Expiry of a dead instance's rows: tests/chat/test_chat_api.py,
driven by the injected clock.)"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.devtools.players import SeatSocket, new_player
from app.devtools.stack import unhandled_errors

pytestmark = pytest.mark.postgres


def seat_present(frame: dict[str, Any], seat: int) -> bool | None:
    if frame.get("type") != "presence":
        return None
    return next((s["present"] for s in frame["seats"] if s["seat"] == seat), None)


def test_presence_and_chat_cross_instances(two_servers: Any) -> None:
    a, b = two_servers
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
        httpx.Client(base_url=b.base, timeout=10) as cb,
    ):
        ann, bob = new_player(ca, "Ann"), new_player(cb, "Bob")
        t = ca.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
        r = cb.post(
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
            headers=bob.headers,
        )
        r.raise_for_status()

        async def scenario() -> None:
            sb = await SeatSocket(b.ws_base, t["id"], bob.token).connect()
            await sb.wait_for(lambda f: f.get("type") == "chat_history")
            mark = sb.received
            sa = await SeatSocket(a.ws_base, t["id"], ann.token).connect()
            await sa.wait_for(lambda f: f.get("type") == "chat_history")
            # Ann opened on A: Bob, on B, hears she is present
            await sb.wait_for(lambda f: seat_present(f, 0) is True, timeout=20, start=mark)
            lobby = cb.get(f"/api/tables/{t['id']}", headers=bob.headers).json()
            assert lobby["seats"][0]["present"] is True
            # a message through A reaches B's socket (and A's) exactly once
            await sa.send({"type": "chat", "text": "over here", "msg_id": "x1", "ref": 1})
            await sa.wait_for(lambda f: f.get("type") == "chat_accepted", timeout=20)
            await sb.wait_for(lambda f: f.get("type") == "chat", timeout=20)
            await sa.send({"type": "chat", "text": "over here", "msg_id": "x1", "ref": 2})
            await sa.wait_for(lambda f: f.get("ref") == 2, timeout=20)
            await sb.send({"type": "chat", "text": "and back", "msg_id": "y1"})
            for s in (sa, sb):
                await s.wait_for(lambda f: f.get("text") == "and back", timeout=20)
            for s in (sa, sb):
                texts = [f["text"] for f in s.frames if f.get("type") == "chat"]
                assert texts == ["over here", "and back"]
            # Ann's last socket closes on A: Bob hears she is away, with the time
            mark = sb.received
            await sa.close()
            frame = await sb.wait_for(lambda f: seat_present(f, 0) is False, 20, start=mark)
            assert frame["seats"][0]["last_seen"]
            lobby = cb.get(f"/api/tables/{t['id']}", headers=bob.headers).json()
            assert lobby["seats"][0]["present"] is False
            await sb.close()

        asyncio.run(scenario())
    for server in (a, b):
        assert unhandled_errors(server.log_text()) == []
