"""The hidden-information canary, extended past the happy path: what every seat and a spectator
receive in error replies, on reconnection (any ``since``, stale, future or missing), over HTTP and
sockets, and what the server writes to its log at debug level, holds no secret: no other hand,
no deck or pile order, no seed, no RNG state, no token or recovery code."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from app.db.session import Database
from app.devtools.players import SeatSocket, play_one
from app.devtools.stack import ServerProcess, TempDatabase, server_errors
from tests.conftest import SecretCanary
from tests.conftest import need_postgres as require_postgres

pytestmark = pytest.mark.postgres


def _log_leaks(log: str, canary: SecretCanary, secrets_text: list[str]) -> list[str]:
    leaks = []
    if str(canary.seed) in log:
        leaks.append("seed")
    forbidden, own = canary.forbidden_for(None)
    for secret in forbidden | own:
        seq = json.loads(secret)
        for form in (secret, json.dumps(seq), repr(seq), repr(tuple(seq))):
            if form in log:
                leaks.append(f"sequence {form[:60]}")
    for s in secrets_text:
        if s and s in log:
            leaks.append(f"credential {s[:8]}…")
    return leaks


def test_no_secret_in_errors_reconnection_spectators_or_logs(tmp_path):
    require_postgres()
    rng = random.Random(5)
    with TempDatabase(prefix="emara_canary") as db:
        server = ServerProcess(
            db.url,
            tmp_path / "server.log",
            extra_args=["--log-level", "debug"],  # access log and debug lines included
            # every route is read as fast as the server answers, replays included: past a
            # person's replay reads a second (tests/records/test_replay_cost.py tests them)
            env={"EMARA_RATE_REPLAY_READ": "100000/minute"},
        ).start()
        try:
            with httpx.Client(base_url=server.base, timeout=30) as c:
                profiles = []
                for i in range(4):
                    r = c.post("/api/profiles", json={"name": f"S{i}"})
                    c.cookies.clear()
                    profiles.append(r.json())
                h = [{"Authorization": f"Bearer {p['token']}"} for p in profiles]
                # A public replay: the record and replay routes answer strangers too (once the
                # game is finished), so what they say before the end is checked for everyone.
                t = c.post(
                    "/api/tables",
                    json={"seats": 4, "options": {"public_replay": True}},
                    headers=h[0],
                ).json()
                for hh in h[1:]:
                    c.post(
                        f"/api/tables/{t['id']}/join",
                        json={"invite_code": t["invite_code"]},
                        headers=hh,
                    )
                c.post(f"/api/tables/{t['id']}/start", headers=h[0])
                watcher = c.post("/api/profiles", json={"name": "Watcher"}).json()
                c.cookies.clear()
            received: dict[Any, list[Any]] = {i: [] for i in range(4)}
            received[None] = []

            async def play() -> None:
                socks = [SeatSocket(server.ws_base, t["id"], p["token"]) for p in profiles]
                for s in socks:
                    await s.connect()
                spectator = SeatSocket(server.ws_base, t["id"], watcher["token"])
                spectator.url += f"?invite={t['invite_code']}"
                await spectator.connect()
                await asyncio.gather(*(s.wait_version(0, 30) for s in socks))
                for _ in range(40):
                    if await play_one(socks, rng, 30) is None:
                        break
                v = max(s.version for s in socks)
                # Errors of every kind, from every seat and the spectator.
                for s in [*socks, spectator]:
                    for frame in (
                        {"type": "move", "move": {"kind": "end_turn"}, "expected_version": 0,
                         "move_id": uuid.uuid4().hex},
                        {"type": "move", "move": {"kind": "teleport"}, "expected_version": v,
                         "move_id": uuid.uuid4().hex},
                        {"type": "move", "move": [], "expected_version": v, "move_id": "x"},
                        {"type": "hello", "since": "yesterday"},
                        {"type": "spy", "seat": 0},
                    ):  # fmt: skip
                        await s.send(frame)
                # Reconnection with every kind of "since".
                for since in (None, 0, 1, max(v - 3, 0), v, v + 5, 10**9):
                    for s, p in zip([*socks, spectator], [*profiles, watcher], strict=True):
                        again = SeatSocket(server.ws_base, t["id"], p["token"])
                        again.url = s.url
                        await again.connect(since=since)
                        await again.wait_for(lambda f: f.get("type") in ("snapshot", "update"), 30)
                        await again.close()
                        key = socks.index(s) if s in socks else None
                        received[key].extend(again.frames)
                # A ping answered on every socket: whatever was sent before it has arrived.
                for s in [*socks, spectator]:
                    await s.send({"type": "ping", "ref": "barrier"})
                    await s.wait_for(
                        lambda f: f.get("type") == "pong" and f.get("ref") == "barrier", 30
                    )
                for i, s in enumerate(socks):
                    received[i].extend(s.frames)
                    await s.close()
                received[None].extend(spectator.frames)
                await spectator.close()

            asyncio.run(play())

            # HTTP reads and refusals of every seat and of the spectator.
            with httpx.Client(base_url=server.base, timeout=30) as c:
                for i in range(4):
                    for path in (
                        f"/api/tables/{t['id']}/game",
                        f"/api/tables/{t['id']}",
                        "/api/tables",
                    ):
                        received[i].append(c.get(path, headers=h[i]).json())
                    received[i].append(
                        c.post(
                            f"/api/tables/{t['id']}/moves",
                            json={"move": {"kind": "x"}, "expected_version": 0, "move_id": "e"},
                            headers=h[i],
                        ).json()
                    )
                wh = {"Authorization": f"Bearer {watcher['token']}"}
                q = f"?invite={t['invite_code']}"
                # Records and replays of the running game: to nobody, not even its players.
                record_paths = [
                    f"/api/tables/{t['id']}/record",
                    f"/api/replays/{t['id']}",
                    f"/api/replays/{t['id']}?eyes=all",
                    f"/api/replays/{t['id']}/positions/0?eyes=all",
                    f"/api/replays/{t['id']}/positions/1?eyes=0",
                    f"/api/replays/{t['id']}/analysis",
                ]
                for who, headers in [*enumerate(h), (None, wh), (None, {})]:
                    for path in record_paths:
                        r = c.get(path, headers=headers)
                        assert r.status_code == 409, (path, r.text)
                        received[who].append(r.json())
                        received[who].append(dict(r.headers))
                    # Nor can anyone have the bot analyse it (nothing is queued).
                    r = c.post(f"/api/replays/{t['id']}/analysis", headers=headers)
                    assert r.status_code == 409, r.text
                    received[who].append(r.json())
                received[None].append(c.get(f"/api/tables/{t['id']}/game{q}", headers=wh).json())
                received[None].append(c.get(f"/api/tables/{t['id']}/game{q}").json())
                received[None].append(c.get(f"/api/tables/{t['id']}{q}").json())
        finally:
            server.stop()

        # The canary sees every version the game went through (replayed from the seed).
        database = Database(db.url)
        holder = SimpleNamespace(state=SimpleNamespace(service=SimpleNamespace(db=database)))
        try:
            canary = SecretCanary(holder, t["id"])
            assert len(canary.trees) > 10
            for seat, items in received.items():
                assert canary.check(seat, items) > 20
            # Profiles' tokens: each seat's own token may come back to it only at creation.
            for seat, items in received.items():
                text = json.dumps(items)
                for j, p in enumerate(profiles):
                    assert p["token"] not in text, (seat, j)
                    assert p["recovery_code"] not in text
            log = server.log_text()
            assert "GET /api/tables" in log  # the access log was on
            secrets_text = [p["token"] for p in profiles] + [p["recovery_code"] for p in profiles]
            secrets_text += [watcher["token"], watcher["recovery_code"]]
            assert _log_leaks(log, canary, secrets_text) == []
            assert server_errors(log) == []
        finally:
            database.dispose()
