"""A block keeps two people's invitations apart: the invitations waiting between them are
answered at once (declined for the one who blocked, taken back for the other), a rematch leaves
the other's seat free, and an invitation to a table whose host either of them blocked cannot
seat them."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests import games
from tests.conftest import Player
from tests.invitations.helpers import my_invitations
from tests.safety.helpers import code, table


def invite(client: TestClient, host: Player, table_id: str, who: Player) -> Any:
    return client.post(
        f"/api/tables/{table_id}/invitations", json={"profile_id": who.id}, headers=host.headers
    )


def statuses(client: TestClient, table_id: str, host: Player) -> dict[str, str]:
    r = client.get(f"/api/tables/{table_id}/invitations", headers=host.headers)
    return {i["name"]: i["status"] for i in r.json()["invitations"]}


def test_the_invitations_waiting_between_them_are_answered(
    client: TestClient, ann: Player, bob: Player
) -> None:
    table(client, ann, bob)  # they played together: each can invite the other
    bobs = client.post("/api/tables", json={"seats": 2}, headers=bob.headers).json()["id"]
    anns = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()["id"]
    assert invite(client, bob, bobs, ann).status_code == 201
    assert invite(client, ann, anns, bob).status_code == 201
    assert len(my_invitations(client, ann)) == 1 and len(my_invitations(client, bob)) == 1
    r = client.post("/api/me/blocks", json={"profile_id": bob.id}, headers=ann.headers)
    assert r.status_code == 201
    assert statuses(client, bobs, bob) == {"Ann": "declined"}  # a "no", as Bob sees any
    assert statuses(client, anns, ann) == {"Bob": "withdrawn"}
    assert my_invitations(client, ann) == [] and my_invitations(client, bob) == []
    # and no new one, either way
    r = invite(client, bob, bobs, ann)
    assert (r.status_code, code(r)) == (404, "not_found")


def test_a_rematch_leaves_the_seat_of_a_blocked_or_blocking_person_free(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    done = games.finish(client, [ann, bob, eve], seed=5)
    client.post("/api/me/blocks", json={"profile_id": bob.id}, headers=eve.headers)
    r = client.post(f"/api/tables/{done}/rematch", headers=bob.headers)
    assert r.status_code == 200, r.text
    new = r.json()["table_id"]
    assert statuses(client, new, bob) == {"Ann": "pending"}  # Eve is not invited by Bob
    assert my_invitations(client, eve) == []


def test_an_invitation_to_a_table_whose_host_one_blocked_cannot_seat_them(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    table(client, eve, ann, bob)  # they all played together
    # Eve hosts a table, invites Ann; Bob sits there. Ann blocks Bob; then Eve hands the host
    # role to Bob: the invitation cannot seat Ann at Bob's table.
    t = client.post("/api/tables", json={"seats": 3}, headers=eve.headers).json()
    client.post(
        f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=bob.headers
    )
    assert invite(client, eve, t["id"], ann).status_code == 201
    client.post("/api/me/blocks", json={"profile_id": bob.id}, headers=ann.headers)
    (inv,) = my_invitations(client, ann)  # Eve's invitation to Eve's table still stands
    r = client.post(f"/api/tables/{t['id']}/host", json={"seat": 1}, headers=eve.headers)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/invitations/{inv['id']}/accept", headers=ann.headers)
    assert (r.status_code, code(r)) == (409, "host_blocked")
    # the other way round: Bob is blocked by the invitee — for him the invitation is gone
    client.delete(f"/api/me/blocks/{bob.id}", headers=ann.headers)
    client.post("/api/me/blocks", json={"profile_id": ann.id}, headers=bob.headers)
    assert my_invitations(client, ann) == []
    r = client.post(f"/api/invitations/{inv['id']}/accept", headers=ann.headers)
    assert (r.status_code, code(r)) == (404, "not_found")
    lobby = client.get(f"/api/tables/{t['id']}", headers=eve.headers).json()
    assert [s["name"] for s in lobby["seats"]] == ["Eve", "Bob", None]
