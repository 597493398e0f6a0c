"""The guided first game through the API: open it, follow the hints to the end of the first
round (the bots move on their own), the profile remembers; hints only for the seat holder."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player


def _start(client: TestClient, who: Player) -> dict[str, Any]:
    r = client.post("/api/tutorial", headers=who.headers)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def _settle(client: TestClient, app: Any) -> None:
    client.portal.call(app.state.bots.idle)  # type: ignore[union-attr]


def _hint(client: TestClient, tid: str, who: Player) -> dict[str, Any]:
    r = client.get(f"/api/tables/{tid}/hint", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _me(client: TestClient, who: Player) -> dict[str, Any]:
    r = client.get("/api/profiles/me", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_a_guided_game_is_a_real_started_table_with_two_bots(
    client: TestClient, ann: Player
) -> None:
    t = _start(client, ann)
    assert t["status"] == "playing" and t["my_seat"] == 0 and t["options"]["guided"] is True
    assert [s["bot_level"] for s in t["seats"]] == [None, "greedy", "greedy"]
    assert t["to_act"] == [0], "the newcomer moves first"
    h = _hint(client, t["id"], ann)
    assert h["step"] == "play_card" and h["key"] == "guide.play_card_first"
    assert h["seat"] == 0 and h["table_id"] == t["id"] and "move" in h["targets"]
    g = client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()
    assert h["move"] in g["legal_moves"] and h["version"] == g["version"]


def test_following_the_hints_plays_the_game_to_its_end_and_the_profile_remembers(
    client: TestClient, app: Any, ann: Player
) -> None:
    assert _me(client, ann)["guide"] is None
    tid = _start(client, ann)["id"]
    steps: list[str] = []
    for _ in range(1000):
        _settle(client, app)
        h = _hint(client, tid, ann)
        steps.append(h["step"])
        if h["step"] == "done":
            break
        if h["move"] is None:
            assert h["step"] in ("wait", "round_end")
            continue
        r = client.post(
            f"/api/tables/{tid}/moves",
            json={"move": h["move"], "expected_version": h["version"], "move_id": f"g{len(steps)}"},
            headers=ann.headers,
        )
        assert r.status_code == 200, r.text
    assert steps[-1] == "done", steps
    assert steps.count("play_card") == 18 and steps.count("end_turn") == 18
    g = client.get(f"/api/tables/{tid}/game", headers=ann.headers).json()
    assert g["view"]["phase"] == "finished"
    assert _me(client, ann)["guide"] == "finished"
    # a later "dismissed" does not undo "finished"
    r = client.put("/api/profiles/me/guide", json={"status": "dismissed"}, headers=ann.headers)
    assert r.status_code == 200 and r.json() == {"guide": "finished"}


def test_skipping_is_remembered(client: TestClient, ann: Player) -> None:
    r = client.put("/api/profiles/me/guide", json={"status": "dismissed"}, headers=ann.headers)
    assert r.status_code == 200 and r.json() == {"guide": "dismissed"}
    assert _me(client, ann)["guide"] == "dismissed"
    # a later guided game that reaches its end turns it into "finished"
    r = client.put("/api/profiles/me/guide", json={"status": "finished"}, headers=ann.headers)
    assert r.json() == {"guide": "finished"}


def test_bad_guide_bodies_are_422_and_change_nothing(client: TestClient, ann: Player) -> None:
    for body in ({"status": "done"}, {"status": 1}, {}, {"status": "finished", "x": 1}):
        r = client.put("/api/profiles/me/guide", json=body, headers=ann.headers)
        assert r.status_code == 422 and r.json()["error"]["code"] == "malformed", r.text
    assert _me(client, ann)["guide"] is None
    assert client.put("/api/profiles/me/guide", json={"status": "finished"}).status_code == 401


def test_hints_only_for_the_guided_tables_seat_holder(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = _start(client, ann)
    tid = t["id"]
    # someone without a seat or the invite: the table does not exist for them
    r = client.get(f"/api/tables/{tid}/hint", headers=bob.headers)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    # a spectator with the invite code: not their seat
    r = client.get(f"/api/tables/{tid}/hint?invite={t['invite_code']}", headers=bob.headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
    # nobody signed in
    assert client.get(f"/api/tables/{tid}/hint").status_code == 401
    # an ordinary table has no hints
    r = client.post("/api/tables", json={"seats": 2}, headers=ann.headers)
    other = r.json()["id"]
    r = client.get(f"/api/tables/{other}/hint", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_guided"
    # a misshapen id
    r = client.get("/api/tables/short/hint", headers=ann.headers)
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    assert _me(client, ann)["guide"] is None, "looking changes nothing"
