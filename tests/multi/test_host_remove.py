"""Two instances on one Postgres: the host's removal of a person is judged in the database, as
every seat change is, and heard on every instance.

- The host removes Bob on A while Bob leaves on B, sent at once, round after round: exactly one
  of the two acts happens — removed (Bob's leave refused: ``removed_from_table``) or left (the
  removal refused: ``not_a_person``) — and the rows agree: no seat of Bob's, a removal row only
  when the removal won.
- Sockets on B: the host's removal on A closes Bob's socket with ``removed_from_table``, and
  Cid's socket sees the seat free; the host's hand-over on A reaches Cid's socket as a lobby in
  which Cid is the host.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.devtools.players import new_player
from app.devtools.stack import server_errors

pytestmark = pytest.mark.postgres
ROUNDS = 20


def _at_once(*calls: Callable[[], httpx.Response]) -> list[httpx.Response]:
    gate = threading.Barrier(len(calls))

    def run(call: Callable[[], httpx.Response]) -> httpx.Response:
        gate.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def _code(r: httpx.Response) -> str | None:
    return None if r.is_success else str(r.json()["error"]["code"])


def test_removal_and_leave_at_once_on_two_instances(two_servers: Any, pg_db: Any) -> None:
    a, b = two_servers
    bad: list[str] = []
    outcomes = {"removed": 0, "left": 0}
    with (
        httpx.Client(base_url=a.base, timeout=30) as ca,
        httpx.Client(base_url=b.base, timeout=30) as cb,
    ):
        host, guest = new_player(ca), new_player(cb)
        ca.cookies.clear()
        cb.cookies.clear()
        for n in range(ROUNDS):
            t = ca.post("/api/tables", json={"seats": 3}, headers=host.headers).json()
            tid = t["id"]
            join = {"invite_code": t["invite_code"]}
            assert cb.post(f"/api/tables/{tid}/join", json=join, headers=guest.headers).is_success
            removal, leave = _at_once(
                partial(ca.post, f"/api/tables/{tid}/seats/1/remove", headers=host.headers),
                partial(cb.post, f"/api/tables/{tid}/leave", headers=guest.headers),
            )
            seats = pg_db.query("SELECT profile_id FROM seat WHERE table_id = %s", tid)
            removed = pg_db.query("SELECT profile_id FROM table_removal WHERE table_id = %s", tid)
            seen = (removal.status_code, _code(removal), leave.status_code, _code(leave))
            held = [pid for (pid,) in seats]
            if removal.status_code == 200:
                outcomes["removed"] += 1
                ok = (
                    _code(leave) == "removed_from_table"
                    and removed == [(guest.id,)]
                    and held == [host.id]
                )
            else:
                outcomes["left"] += 1
                ok = (
                    _code(removal) == "not_a_person"
                    and leave.status_code == 200
                    and removed == []
                    and held == [host.id]
                )
            if not ok:
                bad.append(f"round {n}: {seen} seats {held} removed {removed}")
            ca.post(f"/api/tables/{tid}/leave", headers=host.headers)  # (closed: My games short)
    assert bad == [], f"{len(bad)} of {ROUNDS} rounds ({outcomes}):\n" + "\n".join(bad)
    assert server_errors(a.log_text()) == [] and server_errors(b.log_text()) == []


async def _until(
    ws: Any, seen: list[dict[str, Any]], done: Callable[[dict[str, Any]], bool]
) -> None:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
        seen.append(frame)
        if frame.get("type") == "ping":
            await ws.send(json.dumps({"type": "pong"}))
        if done(frame):
            return


def test_removal_and_hand_over_reach_the_sockets_on_the_other_instance(
    two_servers: Any,
) -> None:
    a, b = two_servers
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
        httpx.Client(base_url=b.base, timeout=10) as cb,
    ):
        ann, bob, cid = new_player(ca), new_player(cb), new_player(cb)
        ca.cookies.clear()
        cb.cookies.clear()
        t = ca.post("/api/tables", json={"seats": 3}, headers=ann.headers).json()
        for p in (bob, cid):
            r = cb.post(
                f"/api/tables/{t['id']}/join",
                json={"invite_code": t["invite_code"]},
                headers=p.headers,
            )
            assert r.status_code == 200, r.text

        async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int | None]:
            sockets = []
            for p in (bob, cid):
                ws = await connect(
                    f"{b.ws_base}/ws/tables/{t['id']}?invite={t['invite_code']}",
                    additional_headers={"Authorization": f"Bearer {p.token}"},
                )
                await ws.send(json.dumps({"type": "hello", "since": None}))
                await _until(ws, [], lambda f: f.get("type") == "lobby")
                sockets.append(ws)
            bob_ws, cid_ws = sockets
            r = await asyncio.to_thread(
                ca.post, f"/api/tables/{t['id']}/seats/1/remove", headers=ann.headers
            )
            assert r.status_code == 200, r.text
            bob_seen: list[dict[str, Any]] = []
            closed: int | None = None
            try:
                await _until(bob_ws, bob_seen, lambda f: False)
            except ConnectionClosed as exc:
                closed = exc.rcvd.code if exc.rcvd is not None else None
            cid_seen: list[dict[str, Any]] = []
            await _until(
                cid_ws,
                cid_seen,
                lambda f: f.get("type") == "lobby" and not f["table"]["seats"][1]["taken"],
            )
            r = await asyncio.to_thread(
                ca.post, f"/api/tables/{t['id']}/host", json={"seat": 2}, headers=ann.headers
            )
            assert r.status_code == 200, r.text
            await _until(
                cid_ws, cid_seen, lambda f: f.get("type") == "lobby" and f["table"]["host"]
            )
            await cid_ws.close()
            return bob_seen, cid_seen, closed

        bob_seen, cid_seen, closed = asyncio.run(scenario())
    codes = [f.get("code") for f in bob_seen if f.get("type") == "error"]
    assert "removed_from_table" in codes and closed == 4403
    assert cid_seen[-1]["table"]["seats"][2]["host"] is True
    assert server_errors(a.log_text()) == [] and server_errors(b.log_text()) == []
