"""Two campaign starts at the same moment in two server processes make one game (SQLite and
Postgres): the database holds at most one open campaign game per profile."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app.db.models import GameTable
from app.solo.models import SoloGame
from app.solo.service import SoloService
from tests.conftest import Player, make_settings


@pytest.fixture
def second(app: Any, database_url: str, tmp_path: Path) -> Iterator[tuple[Any, TestClient]]:
    """Another server process on the same database."""
    from app.main import create_app

    other = create_app(make_settings(database_url, tmp_path / "second"))
    with TestClient(other) as c:
        yield other, c
    other.state.db.dispose()


def _solo_rows(app: Any, profile_id: str) -> list[SoloGame]:
    with app.state.db.session() as s:
        return list(s.scalars(select(SoloGame).where(SoloGame.profile_id == profile_id)))


def _tables(app: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(GameTable)) or 0)


def test_racing_campaign_starts_make_one_game(
    client: TestClient,
    app: Any,
    second: tuple[Any, TestClient],
    ann: Player,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, other = second
    # Both processes look for an open campaign game before either has registered one.
    barrier = threading.Barrier(2, timeout=30)
    looked: dict[int, int] = {}
    original = SoloService._open_campaign_game

    def look(self: SoloService, profile_id: str) -> str | None:
        first = id(self) not in looked
        looked[id(self)] = looked.get(id(self), 0) + 1
        found = original(self, profile_id)
        if first:
            barrier.wait()
        return found

    monkeypatch.setattr(SoloService, "_open_campaign_game", look)
    answers: list[Any] = [None, None]

    def start(i: int, c: TestClient) -> None:
        answers[i] = c.post("/api/solo", headers=ann.headers, json={"mode": "campaign"})

    threads = [threading.Thread(target=start, args=(i, c)) for i, c in enumerate((client, other))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(a is not None and a.status_code == 201 for a in answers), answers
    bodies = [a.json() for a in answers]
    assert bodies[0]["table_id"] == bodies[1]["table_id"]
    assert sorted(b["resumed"] for b in bodies) == [False, True]
    # One solo game, one table: the loser's table is gone.
    rows = _solo_rows(app, ann.id)
    assert [r.table_id for r in rows] == [bodies[0]["table_id"]]
    assert _tables(app) == 1
    r = client.get("/api/tables", headers=ann.headers)
    assert [t["id"] for t in r.json()["tables"]] == [bodies[0]["table_id"]]


def test_database_refuses_a_second_open_campaign_game(app: Any, ann: Player) -> None:
    from datetime import UTC, datetime

    def add(table_id: str, mode: str, finished: bool = False) -> None:
        with app.state.db.session() as s:
            s.add(
                SoloGame(
                    table_id=table_id,
                    profile_id=ann.id,
                    mode=mode,
                    building_start=40,
                    finished_at=datetime.now(UTC) if finished else None,
                )
            )

    add("done1", "campaign", finished=True)
    add("done2", "campaign", finished=True)
    add("open1", "campaign")
    add("hs1", "high_score")
    add("hs2", "high_score")
    with pytest.raises(IntegrityError):
        add("open2", "campaign")
    assert sorted(r.table_id for r in _solo_rows(app, ann.id)) == [
        "done1",
        "done2",
        "hs1",
        "hs2",
        "open1",
    ]
