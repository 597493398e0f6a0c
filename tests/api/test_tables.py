"""Tables: create, look, join, leave, start, list; invisibility without a seat or the code."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player, new_player
from tests.games import finish


def create(client: TestClient, host: Player, seats: int = 2, **options: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"seats": seats, "options": options}, headers=host.headers)
    assert r.status_code == 201, r.text
    return r.json()


def test_create_table_seats_the_host(client: TestClient, ann: Player) -> None:
    t = create(client, ann, seats=3, full_selection=True, start_player=2)
    assert t["status"] == "lobby"
    assert t["invite_code"]
    assert t["my_seat"] == 0 and t["host"] is True
    assert [s["taken"] for s in t["seats"]] == [True, False, False]
    assert t["seats"][0]["name"] == "Ann" and t["seats"][0]["host"]
    assert t["options"]["full_selection"] is True and t["options"]["start_player"] == 2
    assert "seed" not in t and "state" not in t


def test_create_needs_a_profile(client: TestClient) -> None:
    r = client.post("/api/tables", json={"seats": 2})
    assert r.status_code == 401


def test_bad_table_bodies_are_422(client: TestClient, ann: Player) -> None:
    bad = [
        {"seats": 0},
        {"seats": 5},
        {"seats": "two"},
        {},
        {"seats": 2, "options": {"start_player": 2}},
        {"seats": 2, "options": {"start_player": "first"}},
        {"seats": 2, "options": {"building_start": -1}},
        {"seats": 2, "options": {"unknown": True}},
    ]
    for body in bad:
        r = client.post("/api/tables", json=body, headers=ann.headers)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"] == "malformed"
    assert client.get("/api/tables", headers=ann.headers).json()["tables"] == []


def test_table_is_invisible_without_seat_or_invite(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = create(client, ann)
    for headers in (bob.headers, {}):
        r = client.get(f"/api/tables/{t['id']}", headers=headers)
        assert r.status_code == 404
        assert r.json()["error"]["code"] == "not_found"
        r = client.get(f"/api/tables/{t['id']}?invite=wrong", headers=headers)
        assert r.status_code == 404
    r = client.get(f"/api/tables/{t['id']}?invite={t['invite_code']}", headers=bob.headers)
    assert r.status_code == 200
    lobby = r.json()
    assert lobby["my_seat"] is None and lobby["invite_code"] is None
    # An id of the right shape that names no table is not found; a misshapen one is malformed.
    assert client.get("/api/tables/nope-nope-no", headers=ann.headers).status_code == 404
    r = client.get("/api/tables/nope", headers=ann.headers)
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    r = client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": "wrong"}, headers=bob.headers
    )
    assert r.status_code == 404


def test_join_leave_and_host_handover(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = create(client, ann, seats=3)
    tid, code = t["id"], t["invite_code"]
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=bob.headers)
    assert r.status_code == 200
    assert r.json()["my_seat"] == 1
    # joining twice is harmless
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=bob.headers)
    assert r.json()["my_seat"] == 1
    lobby = client.get(f"/api/tables/{tid}", headers=bob.headers).json()
    assert [s["name"] for s in lobby["seats"]] == ["Ann", "Bob", None]
    assert lobby["invite_code"] == code
    # the host leaves: Bob becomes host
    r = client.post(f"/api/tables/{tid}/leave", headers=ann.headers)
    assert r.status_code == 200
    assert client.get(f"/api/tables/{tid}", headers=ann.headers).status_code == 404
    lobby = client.get(f"/api/tables/{tid}", headers=bob.headers).json()
    assert lobby["host"] is True
    assert [s["taken"] for s in lobby["seats"]] == [False, True, False]
    # Eve takes the first free seat
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=eve.headers)
    assert r.json()["my_seat"] == 0
    # leaving a table you are not at: 404
    assert client.post(f"/api/tables/{tid}/leave", headers=ann.headers).status_code == 404


def test_table_full(client: TestClient, ann: Player, bob: Player, eve: Player) -> None:
    t = create(client, ann, seats=2)
    tid, code = t["id"], t["invite_code"]
    client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=bob.headers)
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=eve.headers)
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "table_full"


def test_start_rules(client: TestClient, ann: Player, bob: Player) -> None:
    t = create(client, ann, seats=2)
    tid, code = t["id"], t["invite_code"]
    r = client.post(f"/api/tables/{tid}/start", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "seats_not_filled"
    client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=bob.headers)
    r = client.post(f"/api/tables/{tid}/start", headers=bob.headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = client.get(f"/api/tables/{tid}/game", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"
    r = client.post(f"/api/tables/{tid}/start", headers=ann.headers)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing"
    assert "seed" not in r.text
    r = client.post(f"/api/tables/{tid}/start", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"
    r = client.post(f"/api/tables/{tid}/leave", headers=bob.headers)
    assert r.status_code == 409
    eve = new_player(client, "Eve")
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=eve.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"


def test_my_tables_lists_open_tables(client: TestClient, ann: Player, bob: Player) -> None:
    a = create(client, ann, seats=2)
    b = create(client, bob, seats=3)
    client.post(
        f"/api/tables/{b['id']}/join", json={"invite_code": b["invite_code"]}, headers=ann.headers
    )
    mine = client.get("/api/tables", headers=ann.headers).json()["tables"]
    assert {t["id"] for t in mine} == {a["id"], b["id"]}
    assert {t["my_seat"] for t in mine} == {0, 1}
    bobs = client.get("/api/tables", headers=bob.headers).json()["tables"]
    assert [t["id"] for t in bobs] == [b["id"]]
    assert client.get("/api/tables").status_code == 401


def test_my_tables_say_whose_move_it_is(client: TestClient, ann: Player, bob: Player) -> None:
    t = create(client, ann, seats=2, start_player=1)
    mine = client.get("/api/tables", headers=ann.headers).json()["tables"]
    assert mine[0]["to_act"] == []  # not started
    client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    for who in (ann, bob):
        (row,) = client.get("/api/tables", headers=who.headers).json()["tables"]
        assert row["to_act"] == [1]


def test_client_routes_and_openapi(client: TestClient) -> None:
    for path in ("/", "/t/abc?invite=x", "/solo", "/records"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "text/html" in r.headers["content-type"]
    assert client.get("/api/nothing-here").status_code == 404
    assert client.get("/no-such-file.js").status_code == 404
    assert client.get("/../pyproject.toml").status_code == 404
    r = client.get("/openapi.json")
    paths = r.json()["paths"]
    for p in (
        "/api/profiles",
        "/api/profiles/me",
        "/api/profiles/recover",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/leave",
        "/api/tables/{table_id}/start",
        "/api/tables/{table_id}/game",
        "/api/tables/{table_id}/moves",
        "/api/health",
    ):
        assert p in paths, p
    assert client.get("/docs").status_code == 200


def test_bodies_and_paths_are_parsed_strictly(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    """No coercion: a boolean or a string where a number belongs is malformed, and so is a seat
    written with a sign or leading zeros, or a table id of the wrong shape. Nothing changes."""

    def malformed(r: Any) -> None:
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "malformed"

    for seats in (True, "2", 2.0):
        malformed(client.post("/api/tables", json={"seats": seats}, headers=ann.headers))
    for options in ({"spectators": "yes"}, {"idle_seconds": "120"}, {"start_player": "1"}):
        body = {"seats": 2, "options": options}
        malformed(client.post("/api/tables", json=body, headers=ann.headers))
    assert client.get("/api/tables", headers=ann.headers).json()["tables"] == []

    t = create(client, ann, seats=3)
    tid = t["id"]
    malformed(client.post(f"/api/tables/{tid}/join", json={"invite_code": 5}, headers=bob.headers))
    for seat in ("+2", "0002", "-1", "2.0", "x"):
        r = client.post(
            f"/api/tables/{tid}/seats/{seat}/bot", json={"level": "random"}, headers=ann.headers
        )
        malformed(r)
    for bad_id in ("short", tid + "x", tid[:-1] + "!"):
        malformed(client.get(f"/api/tables/{bad_id}", headers=ann.headers))
    lobby = client.get(f"/api/tables/{tid}", headers=ann.headers).json()
    assert [s["taken"] for s in lobby["seats"]] == [True, False, False]
    r = client.post(f"/api/tables/{tid}/seats/2/bot", json={"level": "random"}, headers=ann.headers)
    assert r.status_code == 200, r.text

    t = create(client, ann, seats=2, start_player=0)
    join = {"invite_code": t["invite_code"]}
    assert client.post(f"/api/tables/{t['id']}/join", json=join, headers=bob.headers).is_success
    assert client.post(f"/api/tables/{t['id']}/start", headers=ann.headers).status_code == 200
    g = client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()
    for version in ("0", True, 0.0):
        body = {"move": g["legal_moves"][0], "expected_version": version, "move_id": "x1"}
        malformed(client.post(f"/api/tables/{t['id']}/moves", json=body, headers=ann.headers))
    assert client.get(f"/api/tables/{t['id']}/game", headers=ann.headers).json()["version"] == 0


def test_a_host_who_leaves_a_lobby_of_bots_closes_it(
    client: TestClient, ann: Player, eve: Player
) -> None:
    """Nobody is left to host: the table closes, and its link seats nobody, saying why."""
    t = create(client, ann, seats=2)
    tid, code = t["id"], t["invite_code"]
    r = client.post(f"/api/tables/{tid}/seats/1/bot", json={"level": "greedy"}, headers=ann.headers)
    assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{tid}/leave", headers=ann.headers).status_code == 200
    assert client.get(f"/api/tables/{tid}", headers=ann.headers).status_code == 404
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=eve.headers)
    assert r.status_code == 409
    assert r.json()["error"] == {"code": "wrong_status", "message": "the table is closed"}
    lobby = client.get(f"/api/tables/{tid}", params={"invite": code}, headers=eve.headers).json()
    assert lobby["status"] == "closed" and lobby["my_seat"] is None


def test_the_link_of_a_finished_game_says_it_is_over(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    tid = finish(client, [ann, bob], seed=5)
    code = client.get(f"/api/tables/{tid}", headers=ann.headers).json()["invite_code"]
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=eve.headers)
    assert r.status_code == 409
    assert r.json()["error"] == {"code": "wrong_status", "message": "the game is over"}
    r = client.post(f"/api/tables/{tid}/start", headers=ann.headers)
    assert r.json()["error"] == {"code": "wrong_status", "message": "the game is over"}
