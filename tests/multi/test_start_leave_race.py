"""Two instances on one Postgres: the host's start on A and a guest's leave on B, sent at once,
round after round. The database judges the seats: either the game is dealt for exactly the seats
whose rows exist (and the leave is refused, 409 ``wrong_status``), or the guest left and the
table is still in its lobby (and the start is refused, 409 ``seats_not_filled``). Never a game
dealt for a seat whose row is gone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import httpx
import pytest

from app.devtools.players import new_player
from app.devtools.stack import server_errors

pytestmark = pytest.mark.postgres
ROUNDS = 30


def _at_once(*calls: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """Each call on a thread of its own, all released together by one barrier."""
    gate = threading.Barrier(len(calls))

    def run(call: Callable[[], httpx.Response]) -> httpx.Response:
        gate.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def _code(r: httpx.Response) -> str | None:
    return None if r.is_success else str(r.json()["error"]["code"])


def test_start_and_leave_at_once_on_two_instances(two_servers: Any, pg_db: Any) -> None:
    a, b = two_servers
    outcomes = {"started": 0, "left": 0}
    bad: list[str] = []
    with (
        httpx.Client(base_url=a.base, timeout=30) as ca,
        httpx.Client(base_url=b.base, timeout=30) as cb,
    ):
        host, guest = new_player(ca), new_player(cb)
        ca.cookies.clear()
        cb.cookies.clear()
        for n in range(ROUNDS):
            t = ca.post("/api/tables", json={"seats": 2}, headers=host.headers).json()
            tid = t["id"]
            join = {"invite_code": t["invite_code"]}
            r = cb.post(f"/api/tables/{tid}/join", json=join, headers=guest.headers)
            assert r.status_code == 200, r.text

            start, leave = _at_once(
                partial(ca.post, f"/api/tables/{tid}/start", headers=host.headers),
                partial(cb.post, f"/api/tables/{tid}/leave", headers=guest.headers),
            )
            (status,) = pg_db.query("SELECT status FROM game_table WHERE id = %s", tid)[0]
            rows = pg_db.query("SELECT seat, profile_id FROM seat WHERE table_id = %s", tid)
            held = {seat: pid for seat, pid in rows}
            seen = (start.status_code, _code(start), leave.status_code, _code(leave), status)
            if start.status_code == 200:
                outcomes["started"] += 1
                ok = (
                    leave.status_code == 409
                    and _code(leave) == "wrong_status"
                    and status == "playing"
                    and sorted(held) == [0, 1]
                    and guest.id in held.values()
                    and all(x["taken"] for x in start.json()["seats"])
                )
            else:
                outcomes["left"] += 1
                ok = (
                    start.status_code == 409
                    and _code(start) == "seats_not_filled"
                    and leave.status_code == 200
                    and status == "lobby"
                    and list(held.values()) == [host.id]
                )
            if not ok:
                bad.append(f"round {n}: {seen} seats {sorted(held)}")
            if status == "lobby":
                # The round's table goes: the host leaves it (closed), so My games stays short.
                ca.post(f"/api/tables/{tid}/leave", headers=host.headers)
    assert bad == [], f"{len(bad)} of {ROUNDS} rounds broke the seats ({outcomes}):\n" + "\n".join(
        bad
    )
    assert server_errors(a.log_text()) == [] and server_errors(b.log_text()) == []
