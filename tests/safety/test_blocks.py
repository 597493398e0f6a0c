"""Blocks over HTTP: a person blocks another by profile id, or the person behind a seat or a
chat message at a table they can see; the list, lifting it. A blocked person cannot invite the
blocker nor find them among the people they play with, and their chat is hidden from the blocker
at every table (history, unread): judged by the server, not the client. Each refusal changes
nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import PersonBlock
from tests import games
from tests.conftest import Player, new_player
from tests.safety.helpers import code, say, table


def block(client: TestClient, who: Player, other: str) -> Any:
    return client.post("/api/me/blocks", json={"profile_id": other}, headers=who.headers)


def blocked(client: TestClient, who: Player) -> list[str]:
    r = client.get("/api/me/blocks", headers=who.headers)
    assert r.status_code == 200 and r.headers["cache-control"] == "private, no-store"
    return [p["name"] for p in r.json()["blocked"]]


def people(client: TestClient, who: Player) -> list[str]:
    return [p["name"] for p in client.get("/api/me/people", headers=who.headers).json()["people"]]


def count(app: Any) -> int:
    with app.state.db.session() as s:
        return int(s.scalar(select(func.count()).select_from(PersonBlock)) or 0)


def test_block_by_id_once_list_and_lift(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    r = block(client, ann, bob.id)
    assert r.status_code == 201, r.text
    assert r.json()["id"] == bob.id and r.json()["name"] == "Bob" and r.json()["since"]
    again = block(client, ann, bob.id)
    assert again.status_code == 200 and again.json() == r.json()  # the same block
    assert blocked(client, ann) == ["Bob"] and blocked(client, bob) == []
    assert client.delete(f"/api/me/blocks/{bob.id}", headers=ann.headers).status_code == 204
    assert client.delete(f"/api/me/blocks/{bob.id}", headers=ann.headers).status_code == 204
    assert blocked(client, ann) == []


def test_who_may_not_be_blocked(app: Any, client: TestClient, ann: Player, bob: Player) -> None:
    gone = new_player(client, "Gone")
    r = client.post("/api/me/delete", json={"confirm": True}, headers=gone.headers)
    assert r.status_code == 200, r.text
    refusals = [
        (block(client, ann, ann.id), 422, "cannot_block_self"),
        (block(client, ann, "nobody-has-this"), 404, "not_found"),
        (block(client, ann, gone.id), 404, "not_found"),
        (block(client, ann, "a b"), 422, "malformed"),
    ]
    for r, status, want in refusals:
        assert (r.status_code, code(r)) == (status, want), r.text
    r = client.post("/api/me/blocks", json={"profile_id": bob.id})
    assert r.status_code == 401
    assert count(app) == 0


def test_block_the_person_at_a_seat_or_behind_a_message(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = table(client, ann, bob)
    tid = t["id"]
    r = client.post(f"/api/tables/{tid}/blocks", json={"seat": 1}, headers=ann.headers)
    assert r.status_code == 201 and r.json()["name"] == "Bob"
    # a spectator's message (Eve looks on with the code, the host lets spectators write)
    t2 = table(client, bob, ann, spectator_chat=True)
    mid = say(app, t2["id"], eve, None, "boo")
    r = client.post(f"/api/tables/{t2['id']}/blocks", json={"message_id": mid}, headers=bob.headers)
    assert r.status_code == 201 and r.json()["id"] == eve.id
    refusals = [
        # a stranger to the table; oneself; nobody at the seat; two subjects
        (client.post(f"/api/tables/{tid}/blocks", json={"seat": 0}, headers=eve.headers),
         404, "not_found"),
        (client.post(f"/api/tables/{tid}/blocks", json={"seat": 0}, headers=ann.headers),
         422, "cannot_block_self"),
        (client.post(f"/api/tables/{tid}/blocks", json={"seat": 3}, headers=ann.headers),
         404, "not_found"),
        (client.post(f"/api/tables/{tid}/blocks", json={"seat": 1, "message_id": mid},
                     headers=ann.headers), 422, "malformed"),
    ]  # fmt: skip
    for r, status, want in refusals:
        assert (r.status_code, code(r)) == (status, want), r.text
    assert blocked(client, ann) == ["Bob"] and blocked(client, bob) == ["Eve"]


def test_a_block_hides_the_blocked_persons_chat_from_the_blocker_only(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = table(client, ann, bob, eve)
    tid = t["id"]
    say(app, tid, bob, 1, "before")
    say(app, tid, eve, 2, "eve here")
    assert block(client, ann, bob.id).status_code == 201
    say(app, tid, bob, 1, "after")

    def texts(who: Player, table_id: str = tid) -> list[str]:
        r = client.get(f"/api/tables/{table_id}/chat", headers=who.headers)
        assert r.status_code == 200, r.text
        return [m["text"] for m in r.json()["messages"]]

    assert texts(ann) == ["eve here"]
    assert texts(eve) == ["before", "eve here", "after"]
    assert texts(bob) == ["before", "eve here", "after"]  # Bob is not told: he reads all
    # at every table: a new one where they meet again
    other = table(client, bob, ann)
    say(app, other["id"], bob, 0, "hello again")
    assert texts(ann, other["id"]) == []
    # the unread messages of "since you looked" leave Bob out too
    games.start(client, tid, ann)
    say(app, tid, bob, 1, "in the game")
    say(app, tid, eve, 2, "eve in the game")
    r = client.get(f"/api/tables/{tid}/since", headers=ann.headers)
    assert r.status_code == 200, r.text
    assert [m["text"] for m in r.json()["chat"]] == ["eve here", "eve in the game"]
    assert r.json()["chat_count"] == 2
    # lifted: Bob's words are there again
    client.delete(f"/api/me/blocks/{bob.id}", headers=ann.headers)
    assert "after" in texts(ann)


def test_a_blocked_person_cannot_find_or_invite_the_blocker(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    table(client, ann, bob, eve)
    assert sorted(people(client, bob)) == ["Ann", "Eve"]
    assert block(client, ann, bob.id).status_code == 201
    assert people(client, bob) == ["Eve"]  # Ann is nowhere to be found
    assert people(client, ann) == ["Eve"]  # nor Bob on Ann's side: unblock to invite him
    new = client.post("/api/tables", json={"seats": 3}, headers=bob.headers).json()["id"]
    r = client.post(
        f"/api/tables/{new}/invitations", json={"profile_id": ann.id}, headers=bob.headers
    )
    assert (r.status_code, code(r)) == (404, "not_found")
    assert client.get("/api/me/invitations", headers=ann.headers).json()["invitations"] == []
