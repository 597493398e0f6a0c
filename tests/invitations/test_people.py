"""People I play with (from shared tables only), a host's invitation without a link, naming."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import Player
from tests.invitations.helpers import my_invitations, open_table


def people(client: TestClient, who: Player) -> list[dict[str, object]]:
    r = client.get("/api/me/people", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()["people"]  # type: ignore[no-any-return]


def test_a_host_invites_someone_they_played_with_and_the_invitation_seats_them(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    open_table(client, [ann, bob], start=False)
    assert [p["name"] for p in people(client, ann)] == ["Bob"]
    assert [p["name"] for p in people(client, eve)] == []  # nobody: no search of strangers
    new = client.post("/api/tables", json={"seats": 3}, headers=ann.headers).json()["id"]
    # A stranger's id is refused as if it did not exist; so is oneself.
    for pid in (eve.id, ann.id, "no-such-person"):
        r = client.post(
            f"/api/tables/{new}/invitations", json={"profile_id": pid}, headers=ann.headers
        )
        assert r.status_code == 404, r.text
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": "x\r\ny"}, headers=ann.headers
    )
    assert r.status_code == 422
    # Only the host invites.
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": ann.id}, headers=bob.headers
    )
    assert r.status_code == 404  # Bob does not even see Ann's new table
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": bob.id}, headers=ann.headers
    )
    assert r.status_code == 201, r.text
    assert [(i["name"], i["status"], i["seat"]) for i in r.json()["invitations"]] == [
        ("Bob", "pending", 1)
    ]
    (inv,) = my_invitations(client, bob)
    assert (
        inv["kind"] == "invite"
        and inv["host_name"] == "Ann"
        and inv["names"] == ["Ann", None, None]
    )
    # Bob sees who is invited to the table he is invited to, and accepts: seated at seat 1.
    assert client.get(f"/api/tables/{new}/invitations", headers=bob.headers).status_code == 200
    assert client.get(f"/api/tables/{new}/invitations", headers=eve.headers).status_code == 404
    r = client.post(f"/api/invitations/{inv['id']}/accept", headers=bob.headers)
    assert r.status_code == 200 and r.json()["my_seat"] == 1
    # Seated already: inviting again is refused.
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": bob.id}, headers=ann.headers
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"


def test_a_host_takes_an_invitation_back_and_a_full_table_invites_nobody(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    open_table(client, [ann, bob, eve], start=False)
    new = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()["id"]
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": bob.id}, headers=ann.headers
    )
    assert r.status_code == 201
    invitation = r.json()["invitations"][0]["id"]
    # The one free seat is kept for Bob: Eve cannot be invited to it.
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": eve.id}, headers=ann.headers
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    r = client.delete(f"/api/tables/{new}/invitations/{invitation}", headers=ann.headers)
    assert r.status_code == 200 and r.json()["invitations"][0]["status"] == "withdrawn"
    assert my_invitations(client, bob) == []
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": eve.id}, headers=ann.headers
    )
    assert r.status_code == 201


def test_the_host_names_a_table_and_everyone_sees_the_name(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = open_table(client, [ann, bob], start=False)
    r = client.put(
        f"/api/tables/{t['id']}/name", json={"name": "Ann's  Sunday"}, headers=ann.headers
    )
    assert r.status_code == 200 and r.json()["name"] == "Ann's Sunday"
    assert (
        client.get(f"/api/tables/{t['id']}", headers=bob.headers).json()["name"] == "Ann's Sunday"
    )
    mine = client.get("/api/me/tables", headers=bob.headers).json()["tables"]
    assert mine[0]["name"] == "Ann's Sunday"
    r = client.put(f"/api/tables/{t['id']}/name", json={"name": "Bob's"}, headers=bob.headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    for bad in ("x" * 61, "a\u202eb", "\u0007", 7):
        r = client.put(f"/api/tables/{t['id']}/name", json={"name": bad}, headers=ann.headers)
        assert r.status_code == 422, bad
    r = client.put(f"/api/tables/{t['id']}/name", json={"name": " "}, headers=ann.headers)
    assert r.status_code == 200 and r.json()["name"] is None
