"""Optimistic concurrency and idempotency against the database itself.

Two service instances on one database stand for two server processes: their in-process locks do
not know each other, so only the versioned UPDATE and the unique move_id keep the log straight.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.auth import TokenSigner
from app.db.models import GameTable, MoveRecord
from app.db.session import Database
from app.errors import StaleVersion
from app.realtime.hub import Hub
from app.tables.service import TableService
from tests.conftest import Player


def started_table(client: TestClient, ann: Player, bob: Player) -> str:
    t = client.post(
        "/api/tables", json={"seats": 2, "options": {"start_player": 0}}, headers=ann.headers
    ).json()
    client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    return t["id"]  # type: ignore[no-any-return]


def race(calls: list[Any]) -> list[Any]:
    """Run the calls at the same moment in threads; results or exceptions, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.fixture
def two_services(app: Any, database_url: str) -> Any:
    other = TableService(Database(database_url), Hub(), TokenSigner("test-secret-key"))
    yield app.state.service, other
    other.db.dispose()


def log_length(svc: TableService, table_id: str) -> int:
    with svc.db.session() as s:
        return int(s.scalar(select(func.count()).where(MoveRecord.table_id == table_id)) or 0)


def test_two_writers_on_one_version_never_fork(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    svc, other = two_services
    tid = started_table(client, ann, bob)

    def legal() -> list[Any]:
        return client.get(f"/api/tables/{tid}/game", headers=ann.headers).json()["legal_moves"]

    moves = legal()
    for version in range(3):  # one move lands per round
        a, b = moves[0], moves[-1]
        results = race(
            [
                lambda a=a, v=version: svc._submit(tid, 0, a, v, f"a{v}"),
                lambda b=b, v=version: other._submit(tid, 0, b, v, f"b{v}"),
            ]
        )
        wins = [r for r in results if isinstance(r, tuple)]
        losses = [r for r in results if isinstance(r, StaleVersion)]
        assert len(wins) == 1 and len(losses) == 1, results
        assert losses[0].extra["version"] == version + 1
        assert log_length(svc, tid) == version + 1
        moves = legal()
        if not moves:
            break
    with svc.db.session() as s:
        t = s.get(GameTable, tid)
        assert t is not None and t.version == log_length(svc, tid)
    assert svc.replay_matches(tid)


def test_the_same_move_id_twice_at_once_applies_once(
    client: TestClient, two_services: Any, ann: Player, bob: Player
) -> None:
    svc, other = two_services
    tid = started_table(client, ann, bob)
    move = client.get(f"/api/tables/{tid}/game", headers=ann.headers).json()["legal_moves"][0]
    results = race(
        [
            lambda: svc._submit(tid, 0, move, 0, "only-once"),
            lambda: other._submit(tid, 0, move, 0, "only-once"),
        ]
    )
    assert all(isinstance(r, tuple) for r in results), results
    (first, fresh1), (second, fresh2) = results
    assert first["version"] == second["version"] == 1
    assert first["events"] == second["events"]
    assert sorted([fresh1, fresh2]) == [False, True]
    assert log_length(svc, tid) == 1
    assert svc.replay_matches(tid)
