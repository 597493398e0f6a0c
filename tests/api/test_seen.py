"""Since you looked over HTTP: the mark per seat (POST /seen) and what changed (GET /since)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.test_game import game, post_move, started
from tests.conftest import Player, SecretCanary, make_settings, pick_move


def seen(client: TestClient, tid: str, who: Player, body: Any) -> Any:
    return client.post(f"/api/tables/{tid}/seen", json=body, headers=who.headers)


def since(client: TestClient, tid: str, who: Player) -> Any:
    r = client.get(f"/api/tables/{tid}/since", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()


def play_while_away(
    client: TestClient, tid: str, players: list[Player], away: int, rng: random.Random
) -> int:
    """Play until every other seat moved since ``away`` last marked what it saw and it is that
    seat's turn again; ``away`` marks each version right after its own moves. Returns its mark."""
    mark = game(client, tid, players[away])["version"]
    assert seen(client, tid, players[away], {"version": mark}).status_code == 200
    movers: set[int] = set()
    others = {n for n in range(len(players)) if n != away}
    for _ in range(400):
        g = game(client, tid, players[0])
        to_act = g["view"]["to_act"]
        if movers == others and away in to_act:
            return mark
        seat = to_act[0]
        legal = game(client, tid, players[seat])["legal_moves"]
        r = post_move(
            client, tid, players[seat], pick_move(legal, rng), g["version"], f"m{g['version']}"
        )
        assert r.status_code == 200, r.text
        if seat == away:
            movers.clear()
            mark = r.json()["version"]
            assert seen(client, tid, players[away], {"version": mark}).json() == {
                "last_seen_version": mark
            }
        else:
            movers.add(seat)
    raise AssertionError("the other seats never both moved before the away seat's turn")


def test_a_seat_away_while_two_others_moved_gets_changes_and_a_summary_naming_them(
    client: TestClient, app: Any, ann: Player, bob: Player, eve: Player
) -> None:
    players = [ann, bob, eve]
    tid = started(client, players, start_player=1)["id"]
    mark = play_while_away(client, tid, players, 0, random.Random(3))
    now = game(client, tid, ann)["version"]
    assert now > mark
    out = since(client, tid, ann)
    assert out["from_version"] == mark == out["last_seen_version"]
    assert out["to_version"] == now and out["truncated"] is False
    assert out["new_log_versions"] == list(range(mark + 1, now + 1))
    named = [x["seat"] for x in out["summary"]]
    assert set(named) == {1, 2} and len(named) == 2
    assert all(x["victoria"] is False for x in out["summary"])
    keys = [c["key"] for c in out["changes"]]
    assert keys and len(set(keys)) == len(keys)
    assert any(k.startswith(("player:1:", "councilor:1:")) for k in keys)
    assert any(k.startswith(("player:2:", "councilor:2:")) for k in keys)
    # the others' answers are their own: bob's mark is where bob left it
    bob_out = since(client, tid, bob)
    assert bob_out["from_version"] == 0 and bob_out["new_log_versions"] == list(range(1, now + 1))
    # nothing of another seat's secrets, and none of the engine's own
    canary = SecretCanary(app, tid)
    assert canary.check(0, [out]) == 1
    assert canary.check(1, [bob_out]) == 1
    # once marked at the current version there is nothing new
    assert seen(client, tid, ann, {"version": now}).json() == {"last_seen_version": now}
    again = since(client, tid, ann)
    assert again["from_version"] == again["to_version"] == now
    assert again["changes"] == again["summary"] == again["new_log_versions"] == []


def test_the_mark_only_moves_forward_and_never_past_the_table(
    client: TestClient, ann: Player, bob: Player
) -> None:
    tid = started(client, [ann, bob], start_player=0)["id"]
    rng = random.Random(5)
    for _ in range(4):
        g = game(client, tid, ann)
        seat = g["view"]["to_act"][0]
        who = [ann, bob][seat]
        legal = game(client, tid, who)["legal_moves"]
        r = post_move(client, tid, who, pick_move(legal, rng), g["version"], f"m{g['version']}")
        assert r.status_code == 200, r.text
    assert seen(client, tid, ann, {"version": 3}).json() == {"last_seen_version": 3}
    assert seen(client, tid, ann, {"version": 1}).json() == {"last_seen_version": 3}
    r = seen(client, tid, ann, {"version": 5})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    assert r.json()["error"]["version"] == 4
    assert since(client, tid, ann)["from_version"] == 3
    # only the caller's own seat: bob's call moved bob's mark, not ann's
    assert seen(client, tid, bob, {"version": 4}).json() == {"last_seen_version": 4}
    assert since(client, tid, ann)["from_version"] == 3
    assert since(client, tid, bob)["from_version"] == 4


@pytest.mark.parametrize(
    "body",
    [
        {"version": "3"},
        {"version": 2.0},
        {"version": True},
        {"version": -1},
        {},
        {"version": 1, "seat": 1},
    ],
)
def test_the_seen_body_is_strict_and_a_refusal_changes_nothing(
    client: TestClient, ann: Player, bob: Player, body: Any
) -> None:
    tid = started(client, [ann, bob], start_player=0)["id"]
    r = seen(client, tid, ann, body)
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    assert since(client, tid, ann)["last_seen_version"] == 0


def test_strangers_and_lobbies_are_refused(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = started(client, [ann, bob], start_player=0)
    tid = t["id"]
    # someone without a seat (even with the invite code) keeps no mark and sees no table here
    assert seen(client, tid, eve, {"version": 0}).status_code == 404
    assert client.get(f"/api/tables/{tid}/since", headers=eve.headers).status_code == 404
    assert client.get(f"/api/tables/{tid}/since").status_code == 401
    lobby = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
    r = client.get(f"/api/tables/{lobby['id']}/since", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"
    r = seen(client, lobby["id"], ann, {"version": 0})
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"


def test_far_behind_gets_the_summary_of_the_last_window_only(
    client: TestClient, ann: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.seen.service as seen_module

    monkeypatch.setattr(seen_module, "SINCE_WINDOW", 3)
    tid = started(client, [ann, bob], start_player=1)["id"]
    rng = random.Random(11)
    for _ in range(6):
        g = game(client, tid, ann)
        seat = g["view"]["to_act"][0]
        who = [ann, bob][seat]
        legal = game(client, tid, who)["legal_moves"]
        r = post_move(client, tid, who, pick_move(legal, rng), g["version"], f"m{g['version']}")
        assert r.status_code == 200, r.text
    out = since(client, tid, ann)
    assert out["truncated"] is True and out["changes"] == []
    assert out["from_version"] == 3 and out["to_version"] == 6 and out["last_seen_version"] == 0
    assert out["new_log_versions"] == [4, 5, 6]


def test_the_mark_holds_across_a_restart(
    client: TestClient, database_url: str, tmp_path: Path, ann: Player, bob: Player
) -> None:
    from app.main import create_app

    tid = started(client, [ann, bob], start_player=0)["id"]
    g = game(client, tid, ann)
    legal = g["legal_moves"]
    r = post_move(client, tid, ann, pick_move(legal, random.Random(1)), 0, "m0")
    assert r.status_code == 200, r.text
    assert seen(client, tid, bob, {"version": 1}).status_code == 200
    other = create_app(make_settings(database_url, tmp_path / "other"))
    try:
        with TestClient(other) as c2:
            assert since(c2, tid, bob)["from_version"] == 1
            assert since(c2, tid, ann)["from_version"] == 0
    finally:
        other.state.db.dispose()
