"""Solo results, the campaign and an unfinished game survive a server restart on Postgres.

A real uvicorn process serves the app on a per-test Postgres database; it is stopped and a new one
started on the same database between the checks.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from app.db.migrate import upgrade
from app.devtools.stack import ServerProcess
from app.solo.models import SoloGame
from tests.conftest import postgres_database

pytestmark = pytest.mark.postgres


@contextlib.contextmanager
def uvicorn_process(url: str, data_dir: Path) -> Iterator[httpx.Client]:
    """The app under uvicorn on the given database; the same signing key every time. Its moves
    over HTTP come as fast as the machine sends them: past the default rate per profile."""
    fast = {"EMARA_RATE_HTTP_MOVES": "100000/minute"}
    with (
        ServerProcess(url, data_dir / "server.log", env=fast) as server,
        httpx.Client(base_url=server.base, timeout=30) as client,
    ):
        yield client


def play(client: httpx.Client, headers: dict[str, str], table_id: str, moves: int) -> dict:
    """Play up to `moves` moves (the first legal one each time); returns the latest game."""
    for n in range(moves):
        game = client.get(f"/api/tables/{table_id}/game", headers=headers).json()
        if game["view"]["outcome"] is not None:
            return game
        r = client.post(
            f"/api/tables/{table_id}/moves",
            headers=headers,
            json={
                "move": game["legal_moves"][n % len(game["legal_moves"])],
                "expected_version": game["version"],
                "move_id": f"{table_id}-{n}",
            },
        )
        assert r.status_code == 200, r.text
    return client.get(f"/api/tables/{table_id}/game", headers=headers).json()


def test_results_campaign_and_open_game_survive_a_restart(tmp_path: Path) -> None:
    with postgres_database() as url:
        upgrade(url)
        with uvicorn_process(url, tmp_path / "a") as c:
            r = c.post("/api/profiles", json={"name": "Ann"})
            assert r.status_code == 201, r.text
            ann = r.json()
            headers = {"Authorization": f"Bearer {ann['token']}"}

            # Earlier campaign games, as if played before: win at 40, loss at 35, win at 37.
            engine = create_engine(url)
            t0 = datetime(2026, 1, 1, tzinfo=UTC)
            script = [(40, 61, 58, True), (35, 50, 62, False), (37, 66, 60, True)]
            with Session(engine) as s, s.begin():
                for i, (start, score, vic, won) in enumerate(script):
                    s.add(
                        SoloGame(
                            table_id=f"old{i}",
                            profile_id=ann["id"],
                            mode="campaign",
                            building_start=start,
                            created_at=t0 + timedelta(days=i),
                            finished_at=t0 + timedelta(days=i, hours=1),
                            cp=score,
                            bp=score + 5,
                            score=score,
                            victoria_cp=vic,
                            victoria_score=vic,
                            won=won,
                        )
                    )
            engine.dispose()

            # A high-score game played to the end on this server.
            hs = c.post(
                "/api/solo", headers=headers, json={"mode": "high_score", "building_start": 25}
            )
            assert hs.status_code == 201, hs.text
            end = play(c, headers, hs.json()["table_id"], 2000)
            final = end["view"]["outcome"]
            assert final is not None

            # A campaign game left unfinished, at the campaign's next value (37 won → 32).
            camp = c.post("/api/solo", headers=headers, json={"mode": "campaign"})
            assert camp.json()["building_start"] == 32
            open_id = camp.json()["table_id"]
            middle = play(c, headers, open_id, 7)
            assert middle["view"]["outcome"] is None

            before = c.get("/api/profiles/me/solo", headers=headers).json()
            assert before["campaign"]["next_start"] == 32
            assert (before["campaign"]["best_start"], before["campaign"]["best_score"]) == (37, 66)
            # best score per start value: the campaign games count at theirs too
            assert before["high_scores"]["25"] == final["players"][0]["score"]
            assert set(before["high_scores"]) == {"40", "35", "37", "25"}
            assert [g["table_id"] for g in before["open"]] == [open_id]

        with uvicorn_process(url, tmp_path / "b") as c:
            after = c.get("/api/profiles/me/solo", headers=headers).json()
            assert after == before
            # The unfinished campaign game resumes where it was left.
            again = c.post("/api/solo", headers=headers, json={"mode": "campaign"})
            assert again.json()["table_id"] == open_id
            assert again.json()["resumed"] is True
            game = c.get(f"/api/tables/{open_id}/game", headers=headers).json()
            assert game["version"] == middle["version"]
            assert game["view"] == middle["view"]
