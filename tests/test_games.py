"""The factory of finished games (app/devtools/finished.py through tests/games.py): the moves are
the ones the suite's HTTP players make with the same seed, the game notice is published on the
app's event loop as the server's are, and a table not in play is refused."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app import rules
from app.devtools.finished import NotStarted
from app.realtime.hub import Notice
from app.tables import repository as repo
from tests import games
from tests.conftest import Player, pick_move


def _state(app: Any, table_id: str) -> Any:
    with app.state.db.begin() as conn:
        row = repo.snapshot(conn, table_id)
    assert row is not None
    return row.state


def _started(client: TestClient, players: list[Player], seed: int) -> str:
    t = games.open_table(client, players)
    games.start(client, t["id"], players[0], seed)
    return str(t["id"])


def test_the_moves_are_the_http_players_moves_with_the_same_seed(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    by_http, in_process = _started(client, [ann, bob], 77), _started(client, [ann, bob], 77)
    rng = random.Random(4)
    for n in range(12):
        g = games.game(client, by_http, ann)
        mover = [ann, bob][g["view"]["to_act"][0]]
        legal = games.game(client, by_http, mover)["legal_moves"]
        r = client.post(
            f"/api/tables/{by_http}/moves",
            json={
                "move": pick_move(legal, rng),
                "expected_version": g["version"],
                "move_id": f"m{n}",
            },
            headers=mover.headers,
        )
        assert r.status_code == 200, r.text
    assert games.play_out(client, in_process, seed=4, stop_after=12) == 12
    assert _state(app, by_http) == _state(app, in_process)
    http_log = games.game(client, by_http, bob)["log"]
    factory_log = games.game(client, in_process, bob)["log"]
    assert [(e["version"], e["seat"], e["move"]) for e in http_log] == [
        (e["version"], e["seat"], e["move"]) for e in factory_log
    ]
    # To the end: finished, its record replays (the app fixture checks every table at teardown).
    end = games.play_out(client, in_process, seed=4)
    g = games.game(client, in_process, ann)
    assert g["status"] == "finished" and g["version"] == end
    assert rules.outcome(rules.decode_state(_state(app, in_process))) is not None


def test_the_game_notice_is_published_on_the_apps_loop(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    tid = _started(client, [ann, bob], 5)
    threads: list[int] = []
    app.state.service.hub.watchers.append(lambda notice: threads.append(threading.get_ident()))
    heard: asyncio.Queue[object] = client.portal.call(asyncio.Queue)  # type: ignore[union-attr]
    client.portal.call(app.state.service.hub.subscribe, tid, heard)  # type: ignore[union-attr]

    version = games.play_out(client, tid, seed=1, stop_after=20)

    async def next_notice() -> object:
        return await asyncio.wait_for(heard.get(), 5)

    notice = client.portal.call(next_notice)  # type: ignore[union-attr]
    assert isinstance(notice, Notice) and (notice.table_id, notice.version) == (tid, version)
    assert threads and threading.get_ident() not in threads  # not on the test's own thread


def test_a_table_not_in_play_is_refused_and_unchanged(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    t = games.open_table(client, [ann, bob])
    before = client.get(f"/api/tables/{t['id']}", headers=ann.headers).json()
    with pytest.raises(NotStarted):
        games.play_out(client, t["id"])
    assert client.get(f"/api/tables/{t['id']}", headers=ann.headers).json() == before
