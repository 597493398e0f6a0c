"""My games is bounded and paged: one answer holds the open tables and the newest finished ones;
older finished games come page by page, each once, in order, to their own player only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import GameTable, utcnow
from tests.conftest import Player
from tests.pace.conftest import open_game


def finish_many(app: Any, tc: TestClient, players: list[Player], n: int) -> list[str]:
    """``n`` started games marked finished, the last one the most recently changed (the players
    take turns hosting: each may open only so many tables in ten minutes)."""
    ids = [
        open_game(tc, players[i % 2 :] + players[: i % 2], {"mode": "live"})["id"] for i in range(n)
    ]
    now = utcnow()
    with app.state.db.session() as s:
        for i, tid in enumerate(ids):
            at = now - timedelta(minutes=n - i)
            s.execute(
                update(GameTable)
                .where(GameTable.id == tid)
                .values(status="finished", updated_at=at)
            )
    return ids


def test_finished_games_come_page_by_page(
    clocked: Any, tc: TestClient, ada: Player, ben: Player
) -> None:
    done = finish_many(clocked, tc, [ada, ben], 47)
    playing = open_game(tc, [ada, ben], {"mode": "live"})["id"]
    first = tc.get("/api/me/tables", headers=ada.headers).json()
    assert first["tables"][0]["id"] == playing
    finished = [t["id"] for t in first["tables"] if t["group"] == "finished"]
    assert finished == done[::-1][:20]  # the newest twenty
    seen = list(finished)
    after, pages = first["finished_next"], 0
    while after is not None:
        r = tc.get(
            "/api/me/tables/finished", params={"after": after, "limit": 15}, headers=ada.headers
        )
        assert r.status_code == 200, r.text
        page = r.json()
        assert 0 < len(page["tables"]) <= 15
        assert {t["group"] for t in page["tables"]} == {"finished"}
        seen += [t["id"] for t in page["tables"]]
        after, pages = page["next"], pages + 1
    assert seen == done[::-1] and pages == 2  # 20 + 15 + 12: each once, newest first
    # Ben pages his own list; nobody continues after a table that is not theirs.
    assert tc.get("/api/me/tables", headers=ben.headers).json()["finished_next"] == done[-20]
    for after in (playing, "nope"):
        r = tc.get("/api/me/tables/finished", params={"after": after}, headers=ada.headers)
        assert r.status_code == 404, after
    r = tc.get(
        "/api/me/tables/finished", params={"after": done[5], "limit": 101}, headers=ada.headers
    )
    assert r.status_code == 422
    assert tc.get("/api/me/tables/finished", params={"after": done[5]}).status_code == 401
