"""Export, access and the replay API: who may see a finished game's record and replay, what a
running game gives (nothing), the eyes a position is seen through, and the public option."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from app import rules
from tests.conftest import Player, new_player
from tests.records.helpers import finish, open_table, play, start


def test_a_running_game_has_no_record_and_no_replay(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    tid = open_table(client, [ann, bob], {"public_replay": True})
    assert client.get(f"/api/tables/{tid}/record", headers=ann.headers).status_code == 409
    start(app, client, tid, ann, seed=424242424242)
    play(client, tid, [ann, bob], seed=1, stop_after=8)
    for who in (ann.headers, bob.headers, eve.headers, {}):
        for path in (
            f"/api/tables/{tid}/record",
            f"/api/replays/{tid}",
            f"/api/replays/{tid}/positions/0",
        ):
            r = client.get(path, headers=who)
            assert r.status_code == 409, (path, r.text)
            assert r.json()["error"]["code"] == "not_finished"
            assert "424242424242" not in r.text
    play(client, tid, [ann, bob], seed=1)
    r = client.get(f"/api/tables/{tid}/record", headers=eve.headers)
    assert r.status_code == 200 and r.json()["seed"] == 424242424242
    assert r.headers["content-disposition"] == f'attachment; filename="emara-{tid}.json"'


def test_only_the_players_see_a_replay_until_the_host_makes_it_public(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    tid = finish(app, client, [ann, bob], seed=7)
    lobby = client.get(f"/api/tables/{tid}", headers=ann.headers).json()
    assert lobby["options"]["public_replay"] is False
    paths = (f"/api/tables/{tid}/record", f"/api/replays/{tid}", f"/api/replays/{tid}/positions/3")
    for path in paths:
        for who in (ann, bob):
            assert client.get(path, headers=who.headers).status_code == 200, path
        for headers in (eve.headers, {}):
            r = client.get(path, headers=headers)
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", path
    # Only the host may open it; a stranger learns nothing of the table.
    r = client.put(
        f"/api/tables/{tid}/public_replay", json={"public_replay": True}, headers=bob.headers
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = client.put(
        f"/api/tables/{tid}/public_replay", json={"public_replay": True}, headers=eve.headers
    )
    assert r.status_code == 404
    r = client.put(
        f"/api/tables/{tid}/public_replay", json={"public_replay": "yes"}, headers=ann.headers
    )
    assert r.status_code == 422
    assert client.get(paths[0], headers=eve.headers).status_code == 404
    r = client.put(
        f"/api/tables/{tid}/public_replay", json={"public_replay": True}, headers=ann.headers
    )
    assert r.status_code == 200 and r.json() == {"public_replay": True}
    assert client.get(f"/api/tables/{tid}", headers=ann.headers).json()["options"]["public_replay"]
    for path in paths:
        for headers in (eve.headers, {}):
            assert client.get(path, headers=headers).status_code == 200, path
    client.put(
        f"/api/tables/{tid}/public_replay", json={"public_replay": False}, headers=ann.headers
    )
    assert client.get(paths[1], headers=eve.headers).status_code == 404


def test_a_replay_meta_log_tracks_and_positions(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    cid = new_player(client, "Cid")
    tid = finish(app, client, [ann, bob, cid], seed=21)
    record = client.get(f"/api/tables/{tid}/record", headers=ann.headers).json()
    meta = client.get(f"/api/replays/{tid}", headers=bob.headers).json()
    n_moves = len(record["moves"])
    assert meta["positions"] == n_moves + 1
    assert [p["name"] for p in meta["players"]] == ["Ann", "Bob", "Cid"]
    assert meta["outcome"] == record["outcome"] and meta["options"] == record["options"]
    assert meta["eyes"] == "all" and meta["table_id"] == tid and meta["source"] == "table"
    # The log: the table's own log lines, position by position, each with its summary.
    table_log = client.get(f"/api/tables/{tid}/log?limit=200", headers=bob.headers).json()
    tail = {e["version"]: e for e in table_log["entries"]}
    bobs = client.get(f"/api/replays/{tid}?eyes=1", headers=bob.headers).json()
    for entry in bobs["log"]:
        if entry["position"] in tail:
            line = tail[entry["position"]]
            assert (entry["seat"], entry["move"], entry["events"]) == (
                line["seat"],
                line["move"],
                line["events"],
            )
    assert all(isinstance(e["summary"], list) for e in meta["log"])
    assert any(e["summary"] for e in meta["log"])
    # Both tracks of every player at every position; the last is the final outcome.
    assert len(meta["tracks"]) == meta["positions"]
    assert all(len(row) == 3 for row in meta["tracks"])
    final = {p["seat"]: (p["cp"], p["bp"]) for p in record["outcome"]["players"]}
    assert {t["seat"]: (t["cp"], t["bp"]) for t in meta["tracks"][-1]} == final
    for row in meta["tracks"]:
        assert [t["seat"] for t in row] == [0, 1, 2]
        assert all(isinstance(t["cp"], int) and isinstance(t["bp"], int) for t in row)
    # A position through one seat's eyes is that seat's view; everyone's opens every hand.
    n = n_moves // 3
    state = rules.new_game(record["seed"], record["options"])
    for m in record["moves"][:n]:
        state = rules.apply_move(state, m["seat"], m["move"]).state
    one = client.get(f"/api/replays/{tid}/positions/{n}?eyes=2", headers=ann.headers).json()
    assert one["view"] == json.loads(json.dumps(rules.view_for(state, 2)))
    assert one["hands"] is None and one["position"] == n and one["move"]["position"] == n
    every = client.get(f"/api/replays/{tid}/positions/{n}", headers=ann.headers).json()
    assert every["eyes"] == "all" and every["view"]["me"] is None
    assert every["view"] == json.loads(json.dumps(rules.view_for(state, None)))
    assert [h["hand"] for h in every["hands"]] == [state.tree["ps"][s]["hand"] for s in range(3)]
    assert every["scores"] == meta["tracks"][n]
    first = client.get(f"/api/replays/{tid}/positions/0", headers=ann.headers).json()
    assert first["move"] is None
    # Out of range, and eyes that are not a seat of this game.
    r = client.get(f"/api/replays/{tid}/positions/{n_moves + 1}", headers=ann.headers)
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_position"
    r = client.get(f"/api/replays/{tid}/positions/0?eyes=3", headers=ann.headers)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_eyes"
    for bad in ("9", "me", "-1", "01"):
        r = client.get(f"/api/replays/{tid}/positions/0?eyes={bad}", headers=ann.headers)
        assert r.status_code == 422, bad
    for bad_id in ("short", "x" * 13, "a" * 23):
        assert client.get(f"/api/replays/{bad_id}", headers=ann.headers).status_code in (404, 422)


def test_stepping_through_a_replay_replays_once(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    tid = finish(app, client, [ann, bob], seed=5)
    cache = app.state.records.cache
    client.get(f"/api/replays/{tid}/positions/0", headers=ann.headers)
    misses = cache.misses
    positions = client.get(f"/api/replays/{tid}", headers=ann.headers).json()["positions"]
    for n in range(0, positions, 7):
        assert (
            client.get(f"/api/replays/{tid}/positions/{n}", headers=ann.headers).status_code == 200
        )
    assert cache.misses == misses


def test_an_imported_replay_is_its_owners_alone(
    client: TestClient, ann: Player, bob: Player, example: dict[str, Any]
) -> None:
    r = client.post("/api/records", json=example, headers=ann.headers)
    assert r.status_code == 201, r.text
    rid = r.json()["replay_id"]
    assert client.get(f"/api/replays/{rid}", headers=ann.headers).status_code == 200
    for headers in (bob.headers, {}):
        r = client.get(f"/api/replays/{rid}/positions/1", headers=headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    meta = client.get(f"/api/replays/{rid}", headers=ann.headers).json()
    assert meta["source"] == "import" and meta["table_id"] is None
    assert meta["name"] == example["name"] and meta["players"] == example["players"]
