"""The operator's commands reach every running server (Postgres LISTEN/NOTIFY): a suspended
profile's socket on another instance closes at once, and a closed table's players, wherever
their socket is, are told."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.admin.__main__ import app as admin_app
from app.devtools.players import new_player
from app.devtools.stack import server_errors

pytestmark = pytest.mark.postgres


def _admin(url: str, *args: str) -> Any:
    result = CliRunner().invoke(admin_app, list(args), env={"EMARA_DATABASE_URL": url})
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result


async def _frames_until_closed(ws: Any, seen: list[dict[str, Any]]) -> None:
    try:
        while True:
            seen.append(json.loads(await ws.recv()))
    except ConnectionClosed:
        return


def _closed(frames: list[dict[str, Any]]) -> bool:
    return any(f.get("type") == "lobby" and f["table"]["status"] == "closed" for f in frames)


def test_suspend_closes_sockets_and_close_tells_players_on_other_instances(
    pg_db: Any, two_servers: Any
) -> None:
    a, b = two_servers
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
        httpx.Client(base_url=b.base, timeout=10) as cb,
    ):
        ann, bob = new_player(ca), new_player(cb)
        t = ca.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
        r = cb.post(
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
            headers=bob.headers,
        )
        assert r.status_code == 200, r.text

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        ann_ws = await connect(
            f"{b.ws_base}/ws/tables/{t['id']}",
            additional_headers={"Authorization": f"Bearer {ann.token}"},
        )
        bob_ws = await connect(
            f"{a.ws_base}/ws/tables/{t['id']}",
            additional_headers={"Authorization": f"Bearer {bob.token}"},
        )
        assert json.loads(await ann_ws.recv())["type"] == "welcome"
        assert json.loads(await bob_ws.recv())["type"] == "welcome"
        ann_seen: list[dict[str, Any]] = []
        ann_done = asyncio.ensure_future(_frames_until_closed(ann_ws, ann_seen))
        await asyncio.to_thread(_admin, pg_db.url, "profiles", "suspend", ann.id)
        await asyncio.wait_for(ann_done, 10)  # Ann's socket on B closed
        await asyncio.to_thread(_admin, pg_db.url, "tables", "close", t["id"], "--yes")
        bob_seen: list[dict[str, Any]] = []
        while not _closed(bob_seen):
            bob_seen.append(json.loads(await asyncio.wait_for(bob_ws.recv(), 10)))
        await bob_ws.close()
        return ann_seen, bob_seen

    _, bob_seen = asyncio.run(scenario())
    assert _closed(bob_seen)
    assert server_errors(a.log_text()) == [] and server_errors(b.log_text()) == []
