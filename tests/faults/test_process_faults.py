"""The server process dies or is stopped under play: nothing acknowledged is lost, nothing is
applied twice, and clients resync from their last version."""

from __future__ import annotations

import asyncio
import random
import signal

import httpx
import pytest

from app.devtools.players import SeatSocket, move_log, play_one, seat_table, table_version
from app.devtools.stack import ServerProcess, server_errors

pytestmark = pytest.mark.postgres


async def _open(server: ServerProcess, table, since: int | None = None) -> list[SeatSocket]:
    socks = [SeatSocket(server.ws_base, table.id, p.token) for p in table.players]
    for s in socks:
        await s.connect(since=since)
    await asyncio.gather(*(s.wait_version(max(since or 0, 0), 10) for s in socks))
    return socks


def test_kill9_mid_game_loses_no_acknowledged_move(pg_db, tmp_path):
    server = ServerProcess(pg_db.url, tmp_path / "server.log").start()
    rng = random.Random(11)
    try:
        with httpx.Client(base_url=server.base, timeout=10) as c:
            table = seat_table(c)

        async def before_kill():
            socks = await _open(server, table)
            acked: list[tuple[int, str]] = []
            for _ in range(12):
                ack = await play_one(socks, rng)
                assert ack is not None and ack["type"] == "accepted", ack
                acked.append((ack["version"], ack["move_id"]))
            # One more move in flight while the process is killed.
            version = max(s.version for s in socks)
            actor = next(s for s in socks if s.legal_moves)
            move = rng.choice(actor.legal_moves)
            in_flight = await actor.send_move(move, version)
            await asyncio.to_thread(server.kill9)
            codes = await asyncio.gather(*(s.wait_closed(10) for s in socks))
            return socks, acked, (actor, move, version, in_flight), codes

        socks, acked, (actor, move, version, in_flight), codes = asyncio.run(before_kill())
        assert all(code is not None and code != 1000 for code in codes)
        seen = socks[0].version

        # Every acknowledged move is in the log, in order, exactly once.
        log = move_log(pg_db, table.id)
        assert [v for v, _ in log] == list(range(1, len(log) + 1))
        for entry in acked:
            assert entry in log

        server = ServerProcess(pg_db.url, tmp_path / "server2.log", port=server.port).start()

        async def after_restart():
            ws_base = server.ws_base
            fresh = []
            for old in socks:
                s = SeatSocket(ws_base, table.id, old.token)
                # the page keeps what it saw: when nothing moved since, the server sends nothing
                s.version, s.doc, s.view = old.version, old.doc, old.view
                s.legal_moves = old.legal_moves
                await s.connect(since=seen)
                fresh.append(s)
            current = table_version(pg_db, table.id)
            await asyncio.gather(*(s.wait_version(current, 10) for s in fresh))
            # The in-flight move, retried with the same id: applied exactly once in all.
            mover = fresh[socks.index(actor)]
            mark = len(mover.frames)
            await mover.send_move(move, version, move_id=in_flight)
            reply = await mover.wait_for(lambda f: f.get("move_id") == in_flight, 10, mark)
            assert reply["type"] in ("accepted", "error"), reply
            if reply["type"] == "error":  # only if the table moved on: it cannot have here
                raise AssertionError(reply)
            await asyncio.gather(*(s.wait_version(reply["version"], 10) for s in fresh))
            ack = await play_one(fresh, rng)
            assert ack is not None and ack["type"] == "accepted", ack
            for s in fresh:
                await s.close()

        asyncio.run(after_restart())
        log = move_log(pg_db, table.id)
        assert [v for v, _ in log] == list(range(1, len(log) + 1))
        ids = [m for _, m in log]
        assert ids.count(in_flight) == 1
        assert len(ids) == len(set(ids))
        assert server_errors(server.log_text()) == []
    finally:
        server.stop()


def test_sigterm_closes_sockets_with_1012_and_clients_resync(pg_db, tmp_path):
    server = ServerProcess(pg_db.url, tmp_path / "server.log").start()
    rng = random.Random(12)
    try:
        with httpx.Client(base_url=server.base, timeout=10) as c:
            table = seat_table(c)

        async def until_sigterm():
            socks = await _open(server, table)
            for _ in range(5):
                ack = await play_one(socks, rng)
                assert ack is not None and ack["type"] == "accepted", ack
            server.signal(signal.SIGTERM)
            codes = await asyncio.gather(*(s.wait_closed(15) for s in socks))
            return socks, codes

        socks, codes = asyncio.run(until_sigterm())
        assert codes == [1012] * len(socks)
        assert server.proc is not None
        # A graceful exit: uvicorn finishes its shutdown, then re-raises SIGTERM to exit.
        assert server.proc.wait(timeout=20) in (0, -signal.SIGTERM)
        assert "Finished server process" in server.log_text()
        seen = socks[0].version

        server = ServerProcess(pg_db.url, tmp_path / "server2.log", port=server.port).start()

        async def reconnect():
            fresh = []
            for old in socks:
                s = SeatSocket(server.ws_base, table.id, old.token)
                await s.connect(since=seen)
                fresh.append(s)
            await asyncio.gather(*(s.wait_version(seen, 10) for s in fresh))
            ack = await play_one(fresh, rng)
            assert ack is not None and ack["type"] == "accepted", ack
            assert ack["version"] == seen + 1
            for s in fresh:
                await s.close()

        asyncio.run(reconnect())
        assert server_errors(server.log_text()) == []
    finally:
        server.stop()
