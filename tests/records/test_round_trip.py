"""Seeded 2-, 3- and 4-player games finished through the API: each one's record, exported and
imported again, is the same game — the same replay, log, tracks and every view at every position
through every pair of eyes."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app import rules
from app.records import views
from tests.conftest import Player, new_player
from tests.records.helpers import finish

SEEDS = {2: 11, 3: 12, 4: 13}


def _without_ids(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in ("replay_id", "source", "table_id")}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_finished_game_round_trips(app: Any, client: TestClient, ann: Player, seats: int) -> None:
    players = [ann] + [new_player(client, f"P{i}") for i in range(1, seats)]
    seed = SEEDS[seats]
    tid = finish(app, client, players, seed)

    r = client.get(f"/api/tables/{tid}/record", headers=ann.headers)
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["seed"] == seed and record["options"]["players"] == seats
    assert [p["name"] for p in record["players"]] == [p.name for p in players]
    assert (
        len(record["moves"])
        == client.get(f"/api/tables/{tid}", headers=ann.headers).json()["version"]
    )

    # Another person imports it: a replay of their own.
    dan = new_player(client, "Dan")
    r = client.post("/api/records", json=record, headers=dan.headers)
    assert r.status_code == 201, r.text
    rid = r.json()["replay_id"]
    assert len(rid) == 24 and r.json()["positions"] == len(record["moves"]) + 1

    # The imported record exports nothing new: the same bytes of meaning.
    for eyes in ["all", *map(str, range(seats))]:
        a = client.get(f"/api/replays/{tid}?eyes={eyes}", headers=ann.headers).json()
        b = client.get(f"/api/replays/{rid}?eyes={eyes}", headers=dan.headers).json()
        assert a["source"] == "table" and b["source"] == "import"
        assert _without_ids(a) == _without_ids(b)
        assert a["outcome"] == record["outcome"]
        assert len(a["tracks"]) == a["positions"] == len(a["log"]) + 1
    # Positions through the API: the deal, one in the middle, the end.
    last = len(record["moves"])
    for n in (0, last // 2, last):
        for eyes in ["all", *map(str, range(seats))]:
            a = client.get(f"/api/replays/{tid}/positions/{n}?eyes={eyes}", headers=ann.headers)
            b = client.get(f"/api/replays/{rid}/positions/{n}?eyes={eyes}", headers=dan.headers)
            assert a.status_code == b.status_code == 200, (a.text, b.text)
            assert _without_ids(a.json()) == _without_ids(b.json())
    # Every position, every pair of eyes: equal, in process (the same service both read).
    service = app.state.records
    _, done_a = service._load(ann.id, tid)
    _, done_b = service._load(dan.id, rid)
    for n in range(done_a.positions):
        assert rules.encode_state(done_a.state_at(n)) == rules.encode_state(done_b.state_at(n))
        for seat in [None, *range(seats)]:
            assert views.position(done_a, n, seat) == views.position(done_b, n, seat)
    end = client.get(f"/api/replays/{tid}/positions/{last}?eyes=all", headers=ann.headers).json()
    assert end["view"]["outcome"] == record["outcome"]
    assert end["view"]["phase"] == "finished"
