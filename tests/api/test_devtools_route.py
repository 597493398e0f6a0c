"""The test suite's route that plays a started game to its end in the server's process
(app/devtools/routes.py): absent unless the setting mounts it, answered to loopback only, and
what it stores is a finished game as the server would store it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings, new_player, wipe
from tests.games import game, open_table, start

LOCAL = ("127.0.0.1", 40000)


def _path(table_id: str) -> str:
    return f"/api/devtools/tables/{table_id}/play_out"


def test_the_route_is_absent_by_default(app: Any, client: TestClient) -> None:
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    tid = open_table(client, [ann, bob])["id"]
    start(client, tid, ann)
    local = TestClient(app, client=LOCAL)
    r = local.post(_path(tid), json={"seed": 1})
    assert r.status_code in (404, 405)  # no such route (the client's pages answer GET only)
    assert game(client, tid, ann)["status"] == "playing"


@pytest.fixture
def devtools_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    wipe(database_url)
    application = create_app(make_settings(database_url, tmp_path, devtools_routes=True))
    yield application
    application.state.db.dispose()


def test_loopback_gets_a_finished_game_and_nobody_else_does(devtools_app: Any) -> None:
    with TestClient(devtools_app, client=LOCAL) as local:
        ann, bob = new_player(local, "Ann"), new_player(local, "Bob")
        lobby = open_table(local, [ann, bob])["id"]
        r = local.post(_path(lobby), json={"seed": 1})
        assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"
        tid = open_table(local, [ann, bob])["id"]
        start(local, tid, ann)
        outside = TestClient(devtools_app, client=("203.0.113.9", 40000))
        assert outside.post(_path(tid), json={"seed": 1}).status_code == 404
        forwarded = local.post(_path(tid), json={"seed": 1}, headers={"X-Forwarded-For": "1.2.3.4"})
        assert forwarded.status_code == 404
        assert game(local, tid, ann)["status"] == "playing"
        r = local.post(_path(tid), json={"seed": 1})
        assert r.status_code == 200, r.text
        finished = game(local, tid, ann)
        assert finished["status"] == "finished" and finished["version"] == r.json()["version"]
        assert finished["view"]["outcome"] is not None
        record = local.get(f"/api/tables/{tid}/record", headers=bob.headers)
        assert record.status_code == 200 and len(record.json()["moves"]) == r.json()["version"]
