"""A rematch: the same options and name, the same people at their seats once each accepts; a
declined seat stays open for a link; only the invited person answers, once."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Player, new_player
from tests.invitations.helpers import finished_game, my_invitations


def lobby(client: TestClient, table_id: str, who: Player) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table_id}", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_a_rematch_seats_the_same_people_after_they_accept_and_a_declined_seat_stays_open(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    old = finished_game(client, [ann, bob, eve], undo=False, spectators=False)
    r = client.put(f"/api/tables/{old}/name", json={"name": "Friday  club"}, headers=ann.headers)
    assert r.status_code == 200 and r.json()["name"] == "Friday club"
    # Bob asks first: a new table, Bob its host at his old seat, the others invited to theirs.
    r = client.post(f"/api/tables/{old}/rematch", headers=bob.headers)
    assert r.status_code == 200, r.text
    new = r.json()["table_id"]
    assert r.json()["created"] is True
    # Ann asks too: the same table.
    again = client.post(f"/api/tables/{old}/rematch", headers=ann.headers).json()
    assert again == {"table_id": new, "created": False}
    assert lobby(client, old, eve)["rematch_id"] == new
    table = lobby(client, new, bob)
    assert table["status"] == "lobby" and table["host"] is True and table["my_seat"] == 1
    assert table["name"] == "Friday club"
    assert table["options"]["undo"] is False and table["options"]["spectators"] is False
    assert [s["taken"] for s in table["seats"]] == [False, True, False]
    # Ann and Eve each find the invitation in My games; nobody else does.
    (mine,) = my_invitations(client, ann)
    assert mine["table_id"] == new and mine["kind"] == "rematch" and mine["seat"] == 0
    assert mine["inviter_name"] == "Bob" and mine["rematch_of"] == old
    (eves,) = my_invitations(client, eve)
    stranger = new_player(client, "Sam")
    assert my_invitations(client, stranger) == []
    # Only the invited person answers: Eve cannot accept Ann's invitation, nor can Sam.
    for who in (eve, stranger):
        r = client.post(f"/api/invitations/{mine['id']}/accept", headers=who.headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    # A stranger with the link does not take a seat kept for an invited person.
    code = table["invite_code"]
    r = client.post(f"/api/tables/{new}/join", json={"invite_code": code}, headers=stranger.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    # Ann accepts: her old seat. Twice: refused, nothing changes.
    r = client.post(f"/api/invitations/{mine['id']}/accept", headers=ann.headers)
    assert r.status_code == 200, r.text
    assert r.json()["my_seat"] == 0
    r = client.post(f"/api/invitations/{mine['id']}/accept", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "invitation_answered"
    # Eve declines: her seat is open again; the table cannot start until it is filled.
    r = client.post(f"/api/invitations/{eves['id']}/decline", headers=eve.headers)
    assert r.status_code == 204
    r = client.post(f"/api/invitations/{eves['id']}/accept", headers=eve.headers)
    assert r.status_code == 409
    r = client.post(f"/api/tables/{new}/start", headers=bob.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "seats_not_filled"
    answers = client.get(f"/api/tables/{new}/invitations", headers=bob.headers).json()
    assert {(i["name"], i["status"]) for i in answers["invitations"]} == {
        ("Ann", "accepted"),
        ("Eve", "declined"),
    }
    r = client.post(f"/api/tables/{new}/join", json={"invite_code": code}, headers=stranger.headers)
    assert r.status_code == 200 and r.json()["my_seat"] == 2
    r = client.post(f"/api/tables/{new}/start", headers=bob.headers)
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert my_invitations(client, eve) == []


def test_only_players_of_a_finished_game_ask_for_its_rematch(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    r = client.post("/api/tables", json={"seats": 2}, headers=ann.headers)
    lobby_id = r.json()["id"]
    r = client.post(f"/api/tables/{lobby_id}/rematch", headers=ann.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_status"
    old = finished_game(client, [ann, bob])
    r = client.post(f"/api/tables/{old}/rematch", headers=eve.headers)
    assert r.status_code == 404  # not her table: as if it did not exist
    # A finished table's lobby names its rematch to its seats only.
    r = client.post(f"/api/tables/{old}/rematch", headers=ann.headers)
    assert r.status_code == 200
    assert lobby(client, old, bob)["rematch_id"] == r.json()["table_id"]
