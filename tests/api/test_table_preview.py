"""``GET /api/tables/{id}/preview``: what the "who are you?" panel knows of a table before a
name is picked (name, host, free seats, what a newcomer can do), for the invite code only, with
no invite code or profile id in it; and a join under a name already seated there is refused
unless the joiner says they are someone else."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.tables.preview_schemas import TablePreviewOut
from tests.conftest import Player, new_player
from tests.games import finish, open_table, start


def _preview(client: TestClient, tid: str, invite: str | None, status: int = 200) -> Any:
    client.cookies.clear()
    params = {"invite": invite} if invite is not None else {}
    r = client.get(f"/api/tables/{tid}/preview", params=params)
    assert r.status_code == status, r.text
    return r.json()


def test_an_open_table_names_its_host_and_free_seats_and_keeps_secrets(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = client.post("/api/tables", json={"seats": 3}, headers=ann.headers).json()
    client.put(f"/api/tables/{t['id']}/name", json={"name": "Friday"}, headers=ann.headers)
    join = {"invite_code": t["invite_code"]}
    assert client.post(f"/api/tables/{t['id']}/join", json=join, headers=bob.headers).is_success
    body = _preview(client, t["id"], t["invite_code"])
    out = TablePreviewOut.model_validate(body)
    assert (out.name, out.host_name, out.door, out.status) == ("Friday", "Ann", "open", "lobby")
    assert (out.seat_count, out.free_seats, out.spectators) == (3, 1, True)
    assert [(s.seat, s.name, s.host) for s in out.seats] == [
        (0, "Ann", True),
        (1, "Bob", False),
        (2, None, False),
    ]
    text = str(body)
    for secret in (t["invite_code"], ann.id, bob.id, ann.token, bob.token):
        assert secret not in text


def test_a_full_then_running_table_says_so(client: TestClient, ann: Player, bob: Player) -> None:
    t = open_table(client, [ann, bob], {"spectators": False})
    full = _preview(client, t["id"], t["invite_code"])
    assert (full["door"], full["free_seats"], full["spectators"]) == ("full", 0, False)
    start(client, t["id"], ann, seed=7)
    running = _preview(client, t["id"], t["invite_code"])
    assert (running["door"], running["status"], running["free_seats"]) == ("running", "playing", 0)


def test_wrong_or_missing_codes_are_404_and_a_public_finished_game_needs_none(
    client: TestClient, ann: Player
) -> None:
    t = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
    for invite in (None, "WRONG", t["id"]):
        err = _preview(client, t["id"], invite, 404)
        assert err["error"]["code"] == "not_found"
    assert _preview(client, "AAAAAAAAAAAA", t["invite_code"], 404)["error"]["code"] == "not_found"
    # a player sees their own table without the code
    r = client.get(f"/api/tables/{t['id']}/preview", headers=ann.headers)
    assert r.status_code == 200 and r.json()["seats"][0]["name"] == "Ann"
    private = finish(client, [ann], seed=3)
    _preview(client, private, None, 404)
    public = finish(client, [ann], seed=3, public_replay=True)
    assert _preview(client, public, None)["door"] == "finished"


def test_a_seated_name_is_not_taken_again_without_saying_so(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = client.post("/api/tables", json={"seats": 3}, headers=ann.headers).json()
    join = f"/api/tables/{t['id']}/join"
    assert client.post(join, json={"invite_code": t["invite_code"]}, headers=bob.headers).is_success
    again = new_player(client, " bob ")  # the same name as people read it
    r = client.post(join, json={"invite_code": t["invite_code"]}, headers=again.headers)
    assert r.status_code == 409, r.text
    assert r.json()["error"]["code"] == "name_seated" and r.json()["error"]["seat"] == 1
    assert _preview(client, t["id"], t["invite_code"])["free_seats"] == 1  # nobody was seated
    # someone else called Bob says so, and sits; at another table any Bob joins as ever
    body = {"invite_code": t["invite_code"], "another_person": True}
    r = client.post(join, json=body, headers=again.headers)
    assert r.status_code == 200 and r.json()["my_seat"] == 2
    other = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
    r = client.post(
        f"/api/tables/{other['id']}/join",
        json={"invite_code": other["invite_code"]},
        headers=again.headers,
    )
    assert r.status_code == 200, r.text
