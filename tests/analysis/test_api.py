"""Who may ask for an analysis and read it: only of a finished game, only who may see its
replay; a game longer than an analysis covers is refused; the worker runs with the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import AnalysisJob
from tests.analysis.conftest import import_example, worker
from tests.conftest import Player, make_settings, new_player
from tests.records.helpers import open_table, play, start


def jobs(app: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(AnalysisJob)) or 0)


def test_a_running_game_cannot_be_analysed(app: Any, client: TestClient, ann: Player) -> None:
    bob, eve = new_player(client, "Bob"), new_player(client, "Eve")
    tid = open_table(client, [ann, bob], {"public_replay": True})
    start(app, client, tid, ann, seed=424242424242)
    play(client, tid, [ann, bob], seed=1, stop_after=12)
    for who in (ann, bob, eve):
        for method in (client.post, client.get):
            r = method(f"/api/replays/{tid}/analysis", headers=who.headers)
            assert r.status_code == 409, r.text
            assert r.json()["error"]["code"] == "not_finished"
            assert "424242424242" not in r.text and "expected" not in r.text
    assert jobs(app) == 0
    assert worker(app, app.state.clock).run_once() is None
    assert app.state.test_bot.expected_calls == 0


def test_only_who_may_see_the_replay_may_ask(
    app: Any, client: TestClient, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    eve = new_player(client, "Eve")
    for who in (eve.headers, {}):
        for method in (client.post, client.get):
            r = method(f"/api/replays/{rid}/analysis", headers=who)
            assert r.status_code == 404, r.text
    assert jobs(app) == 0
    assert client.post(f"/api/replays/{rid}/analysis", headers=ann.headers).status_code == 200
    assert jobs(app) == 1
    r = client.post("/api/replays/not-an-id!/analysis", headers=ann.headers)
    assert r.status_code == 422


def test_a_game_longer_than_an_analysis_covers_is_refused(
    app: Any, client: TestClient, ann: Player, example: dict[str, Any]
) -> None:
    rid = import_example(client, ann, example)
    app.state.analysis.max_positions = len(example["moves"])  # one position short
    r = client.post(f"/api/replays/{rid}/analysis", headers=ann.headers)
    assert r.status_code == 422 and r.json()["error"]["code"] == "analysis_too_long"
    assert r.json()["error"]["limit"] == len(example["moves"])
    assert jobs(app) == 0


def test_asking_is_rate_limited(database_url: str, tmp_path: Path, example: dict[str, Any]) -> None:
    from app.main import create_app

    app = create_app(
        make_settings(
            database_url, tmp_path, analysis_jobs_per_process=0, rate_analysis_request="2/hour"
        )
    )
    with TestClient(app) as client:
        ann = new_player(client, "Ann")
        rid = import_example(client, ann, example)
        codes = [
            client.post(f"/api/replays/{rid}/analysis", headers=ann.headers).status_code
            for _ in range(3)
        ]
        assert codes == [200, 200, 429]
        assert client.get(f"/api/replays/{rid}/analysis", headers=ann.headers).status_code == 200
    app.state.db.dispose()


def test_the_worker_starts_and_stops_with_the_app(database_url: str, tmp_path: Path) -> None:
    from app.main import create_app

    app = create_app(make_settings(database_url, tmp_path, analysis_jobs_per_process=2))
    w = app.state.analysis_worker
    assert w._tasks == []
    with TestClient(app):
        assert len(w._tasks) == 2 and not any(t.done() for t in w._tasks)
    assert w._tasks == [] and w.stopping.is_set()
    app.state.db.dispose()
