"""The per-table (and per-profile) locks are kept only while in use."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from fastapi.testclient import TestClient

from app.tables.locks import KeyedLocks
from tests.conftest import Player


def test_one_lock_per_key_while_in_use_then_gone() -> None:
    locks = KeyedLocks()
    order: list[str] = []

    async def work(name: str, key: str) -> None:
        async with locks[key]:
            order.append(f"{name}+")
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            order.append(f"{name}-")

    async def main() -> None:
        held = locks["t1"]
        assert locks["t1"] is held and locks["t2"] is not held
        await asyncio.gather(work("a", "t1"), work("b", "t1"), work("c", "t1"))
        del held

    asyncio.run(main())
    # Same key: never two inside at once.
    assert order == ["a+", "a-", "b+", "b-", "c+", "c-"]
    gc.collect()
    assert len(locks) == 0 and "t1" not in locks


def test_locks_do_not_pile_up_with_tables(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    svc = app.state.service
    for i in range(5):
        t = client.post("/api/tables", json={"seats": 2, "options": {}}, headers=ann.headers).json()
        r = client.post(
            f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]},
            headers=bob.headers,
        )
        assert r.status_code == 200
        assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
        g = client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()
        seat = g["view"]["to_act"][0]
        who = [ann, bob][seat]
        g = client.get(f"/api/tables/{t['id']}/game", headers=who.headers).json()
        r = client.post(
            f"/api/tables/{t['id']}/moves",
            json={"move": g["legal_moves"][0], "expected_version": 0, "move_id": f"m{i}"},
            headers=who.headers,
        )
        assert r.status_code == 200, r.text
        # The bot endpoints take the same lock.
        r = client.post(
            f"/api/tables/{t['id']}/seats/{1 - seat}/bot",
            json={"level": "random"},
            headers=[ann, bob][1 - seat].headers,
        )
        assert r.status_code == 200, r.text
    client.portal.call(app.state.bots.idle)  # type: ignore[union-attr]
    gc.collect()
    assert len(svc.locks) == 0
    assert len(app.state.solo._locks) == 0
