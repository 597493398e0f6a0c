"""Two server processes, one Postgres: seats on different processes see each other live.

The hint crosses by LISTEN/NOTIFY; every socket then reloads from the database, which is the
truth. Concurrent moves sent to both processes for the same version never fork the table.
"""

from __future__ import annotations

import asyncio
import random
import uuid

import httpx
import pytest

from app.devtools.players import SeatSocket, get_game, new_player, seat_table
from app.devtools.stack import server_errors

pytestmark = pytest.mark.postgres


def test_lobby_changes_cross_processes(two_servers):
    a, b = two_servers
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
        httpx.Client(base_url=b.base, timeout=10) as cb,
    ):
        host = new_player(ca)
        guest = new_player(cb)
        t = ca.post("/api/tables", json={"seats": 2}, headers=host.headers).json()

        async def scenario() -> None:
            sock = SeatSocket(a.ws_base, t["id"], host.token)
            await sock.connect()
            try:
                await sock.wait_for(lambda f: f.get("type") == "lobby", 10)
                mark = len(sock.frames)
                # The guest joins through the *other* process.
                r = await asyncio.to_thread(
                    cb.post,
                    f"/api/tables/{t['id']}/join",
                    json={"invite_code": t["invite_code"]},
                    headers=guest.headers,
                )
                assert r.status_code == 200, r.text
                frame = await sock.wait_for(
                    lambda f: (
                        f.get("type") == "lobby" and all(s["taken"] for s in f["table"]["seats"])
                    ),
                    10,
                    start=mark,
                )
                assert frame["table"]["seats"][1]["name"] == guest.name
            finally:
                await sock.close()

        asyncio.run(scenario())
    assert server_errors(a.log_text()) == []
    assert server_errors(b.log_text()) == []


async def _race(base_a, base_b, table_id, player, move, version):
    """The same move for the same version, sent to both processes at once."""

    def body():
        return {"move": move, "expected_version": version, "move_id": uuid.uuid4().hex}

    url = f"/api/tables/{table_id}/moves"
    async with (
        httpx.AsyncClient(base_url=base_a, timeout=10) as xa,
        httpx.AsyncClient(base_url=base_b, timeout=10) as xb,
    ):
        return await asyncio.gather(
            xa.post(url, json=body(), headers=player.headers),
            xb.post(url, json=body(), headers=player.headers),
        )


def test_moves_cross_processes_live_and_versions_never_fork(two_servers, pg_db):
    a, b = two_servers
    rng = random.Random(7)
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
    ):
        table = seat_table(ca, seats=4)

        async def scenario() -> int:
            # Seats 0 and 2 on process A, seats 1 and 3 on process B.
            socks = [
                SeatSocket((a if i % 2 == 0 else b).ws_base, table.id, p.token)
                for i, p in enumerate(table.players)
            ]
            for s in socks:
                await s.connect()
            try:
                await asyncio.gather(*(s.wait_version(0, 10) for s in socks))
                crossed = 0
                for _ in range(30):
                    version = max(s.version for s in socks)
                    actor = next((s for s in socks if s.version == version and s.legal_moves), None)
                    if actor is None:
                        break
                    mark = len(actor.frames)
                    mid = await actor.send_move(rng.choice(actor.legal_moves), version)
                    ack = await actor.wait_for(lambda f, m=mid: f.get("move_id") == m, 10, mark)
                    assert ack["type"] == "accepted", ack
                    assert ack["version"] == version + 1
                    # Every seat, on either process, sees the new version live.
                    await asyncio.gather(*(s.wait_version(version + 1, 10) for s in socks))
                    crossed += 1
                return crossed
            finally:
                for s in socks:
                    await s.close()

        moves = asyncio.run(scenario())
        assert moves >= 10

        # Race: the same seat sends a legal move to both processes for the same version,
        # with different move ids. Exactly one wins; the other is a clean stale_version.
        for _ in range(10):
            games = [get_game(ca, table.id, p) for p in table.players]
            version = games[0]["version"]
            seat = next((i for i, g in enumerate(games) if g["legal_moves"]), None)
            if seat is None:
                break
            player = table.players[seat]
            move = rng.choice(games[seat]["legal_moves"])
            ra, rb = asyncio.run(_race(a.base, b.base, table.id, player, move, version))
            codes = sorted([ra.status_code, rb.status_code])
            assert codes == [200, 409], (ra.text, rb.text)
            loser = ra if ra.status_code == 409 else rb
            assert loser.json()["error"]["code"] == "stale_version"

    # The log is one straight line of versions: 1..V, no gap, no duplicate.
    (v,) = pg_db.query("SELECT version FROM game_table WHERE id = %s", table.id)[0]
    versions = [
        r[0]
        for r in pg_db.query(
            "SELECT version FROM move WHERE table_id = %s ORDER BY version", table.id
        )
    ]
    assert versions == list(range(1, v + 1))
    assert server_errors(a.log_text()) == []
    assert server_errors(b.log_text()) == []
