"""Postgres connections terminated under play (``pg_terminate_backend``): a move either
succeeds or fails with a typed error; a client retrying with the same ``move_id`` gets it applied
exactly once. Nothing acknowledged is lost, nothing is applied twice, the server logs no crash."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
import uuid

import httpx
import pytest

from app.devtools.players import SeatSocket, get_game, move_log, seat_table, table_version
from app.devtools.stack import ServerProcess, unhandled_errors

pytestmark = pytest.mark.postgres

RETRYABLE = {"unavailable", "stale_version"}


class Terminator(threading.Thread):
    """Terminates every app connection to the database, over and over (bounded)."""

    def __init__(self, db, every: float = 0.02, rounds: int = 400) -> None:
        super().__init__(daemon=True)
        self.db, self.every, self.rounds = db, every, rounds
        self.stop = threading.Event()
        self.killed = 0

    def run(self) -> None:
        for _ in range(self.rounds):
            if self.stop.is_set():
                return
            with contextlib.suppress(Exception):
                self.killed += self.db.terminate_app_backends()
            time.sleep(self.every)


def _typed(r: httpx.Response) -> str:
    """The error code of a failed response; anything untyped fails the test."""
    assert r.headers.get("content-type", "").startswith("application/json"), (r.status_code, r.text)
    code = r.json()["error"]["code"]
    assert isinstance(code, str) and code
    return code


def _get_game_retrying(c, table_id, player):
    for _ in range(200):
        r = c.get(f"/api/tables/{table_id}/game", headers=player.headers)
        if r.status_code == 200:
            return r.json()
        assert _typed(r) == "unavailable", r.text
        time.sleep(0.01)
    raise AssertionError("the game never became readable")


def test_http_moves_under_terminated_connections(pg_db, tmp_path):
    server = ServerProcess(pg_db.url, tmp_path / "server.log").start()
    rng = random.Random(21)
    acked: list[tuple[int, str]] = []
    failures: dict[str, int] = {}
    try:
        with httpx.Client(base_url=server.base, timeout=15) as c:
            table = seat_table(c)
            killer = Terminator(pg_db)
            killer.start()
            try:
                for _ in range(12):
                    games = [_get_game_retrying(c, table.id, p) for p in table.players]
                    seat = next(i for i, g in enumerate(games) if g["legal_moves"])
                    g = games[seat]
                    body = {
                        "move": rng.choice(g["legal_moves"]),
                        "expected_version": g["version"],
                        "move_id": uuid.uuid4().hex,
                    }
                    for _attempt in range(200):
                        r = c.post(
                            f"/api/tables/{table.id}/moves",
                            json=body,
                            headers=table.players[seat].headers,
                        )
                        if r.status_code == 200:
                            acked.append((r.json()["version"], body["move_id"]))
                            break
                        code = _typed(r)
                        failures[code] = failures.get(code, 0) + 1
                        assert code in RETRYABLE, r.text
                        assert code != "stale_version", r.text  # a retry never goes stale here
                        time.sleep(0.01)
                    else:
                        raise AssertionError("move never went through")
            finally:
                killer.stop.set()
                killer.join(10)
            assert killer.killed > 0
            final = get_game(c, table.id, table.players[0])
        log = move_log(pg_db, table.id)
        assert [v for v, _ in log] == list(range(1, len(log) + 1))
        assert log == acked  # every ack in the log, nothing else, nothing twice
        assert final["version"] == table_version(pg_db, table.id) == len(acked)
        assert unhandled_errors(server.log_text()) == []
    finally:
        server.stop()


def test_socket_moves_under_terminated_connections(pg_db, tmp_path):
    server = ServerProcess(pg_db.url, tmp_path / "server.log").start()
    rng = random.Random(22)
    try:
        with httpx.Client(base_url=server.base, timeout=15) as c:
            table = seat_table(c)

        async def scenario():
            socks = [SeatSocket(server.ws_base, table.id, p.token) for p in table.players]
            for s in socks:
                await s.connect()
            await asyncio.gather(*(s.wait_version(0, 10) for s in socks))
            killer = Terminator(pg_db)
            killer.start()
            acked = []
            errors: dict[str, int] = {}
            try:
                for _ in range(12):
                    version = max(s.version for s in socks)
                    await asyncio.gather(*(s.wait_version(version, 15) for s in socks))
                    actor = next(s for s in socks if s.legal_moves)
                    move, mid = rng.choice(actor.legal_moves), uuid.uuid4().hex
                    for _attempt in range(200):
                        mark = len(actor.frames)
                        await actor.send_move(move, version, move_id=mid)
                        reply = await actor.wait_for(
                            lambda f, m=mid: f.get("move_id") == m, 15, mark
                        )
                        if reply["type"] == "accepted":
                            acked.append((reply["version"], mid))
                            break
                        code = reply.get("code")
                        errors[code] = errors.get(code, 0) + 1
                        assert code == "unavailable", reply
                        await asyncio.sleep(0.01)
                    else:
                        raise AssertionError("move never went through")
                    # Every socket stays open and catches up (a notice may be lost while the
                    # database is away; a hello brings the socket up to date).
                    for s in socks:
                        assert s.close_code is None
                    try:
                        await asyncio.gather(*(s.wait_version(acked[-1][0], 5) for s in socks))
                    except TimeoutError:
                        for s in socks:
                            if s.version < acked[-1][0]:
                                await s.send({"type": "hello", "since": s.version})
                        await asyncio.gather(*(s.wait_version(acked[-1][0], 15) for s in socks))
            finally:
                killer.stop.set()
                await asyncio.to_thread(killer.join, 10)
                for s in socks:
                    await s.close()
            return acked

        acked = asyncio.run(scenario())
        assert move_log(pg_db, table.id) == acked
        assert unhandled_errors(server.log_text()) == []
    finally:
        server.stop()
