"""The host's acts on the people at the table: remove a person from the lobby (they cannot come
back by the link, nor look, until invited again) and hand the host role to another seat. Each
refusal changes nothing: not the host, after the start, their own seat, a seat without a person.
Over the socket, the removed person is told and their socket closes; the others see the lobby."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from tests import games
from tests.conftest import LiveServer, Player
from tests.ws.client import Http, Socket
from tests.ws.test_socket import run, setup_table


def lobby(client: TestClient, table_id: str, who: Player, invite: str | None = None) -> Any:
    params = {"invite": invite} if invite else None
    return client.get(f"/api/tables/{table_id}", params=params, headers=who.headers)


def remove(client: TestClient, table_id: str, who: Player, seat: int) -> Any:
    return client.post(f"/api/tables/{table_id}/seats/{seat}/remove", headers=who.headers)


def hand(client: TestClient, table_id: str, who: Player, seat: Any) -> Any:
    return client.post(f"/api/tables/{table_id}/host", json={"seat": seat}, headers=who.headers)


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def seats_version(app: Any, table_id: str) -> int:
    from app.db.models import GameTable

    with app.state.db.session() as s:
        return int(s.get(GameTable, table_id).seats_version)  # type: ignore[union-attr]


def test_the_host_removes_a_person_who_cannot_come_back_by_the_link(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    games.open_table(client, [ann, bob])  # (an earlier table: they played together)
    t = games.open_table(client, [ann, bob, eve])
    tid, code_ = t["id"], t["invite_code"]
    before = seats_version(app, tid)
    r = remove(client, tid, ann, 1)
    assert r.status_code == 200, r.text
    assert [s["name"] for s in r.json()["seats"]] == ["Ann", None, "Eve"]
    assert seats_version(app, tid) == before + 1  # binds the next move on every instance
    # Bob: no look (even with the code), no join, no preview — told why
    for answer in (
        lobby(client, tid, bob),
        lobby(client, tid, bob, code_),
        client.get(f"/api/tables/{tid}/preview", params={"invite": code_}, headers=bob.headers),
        client.post(f"/api/tables/{tid}/join", json={"invite_code": code_}, headers=bob.headers),
    ):
        assert (answer.status_code, code(answer)) == (403, "removed_from_table"), answer.text
    assert [s["name"] for s in lobby(client, tid, eve).json()["seats"]] == ["Ann", None, "Eve"]
    # the host invites him again: the removal no longer holds
    r = client.post(f"/api/tables/{tid}/invitations", json={"profile_id": bob.id},
                    headers=ann.headers)  # fmt: skip
    assert r.status_code == 201, r.text
    assert lobby(client, tid, bob, code_).status_code == 200
    (inv,) = client.get("/api/me/invitations", headers=bob.headers).json()["invitations"]
    r = client.post(f"/api/invitations/{inv['id']}/accept", headers=bob.headers)
    assert r.status_code == 200 and r.json()["my_seat"] == 1


def test_who_may_not_remove_whom(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = games.open_table(client, [ann, bob])
    tid = t["id"]
    bot = client.post(f"/api/tables/{tid}/seats/1/bot", json={"level": "greedy"},
                      headers=ann.headers)  # fmt: skip
    assert bot.status_code == 409  # (Bob sits there: a bot cannot take his seat)
    three = client.post("/api/tables", json={"seats": 3}, headers=ann.headers).json()
    client.post(f"/api/tables/{three['id']}/seats/2/bot", json={"level": "greedy"},
                headers=ann.headers)  # fmt: skip
    before = seats_version(app, tid)
    refusals = [
        (remove(client, tid, bob, 0), 403, "not_host"),
        (remove(client, tid, eve, 1), 404, "not_found"),  # a stranger: no such table
        (remove(client, tid, ann, 0), 409, "own_seat"),
        (remove(client, tid, ann, 3), 404, "not_found"),  # no such seat at a 2-seat table
        (remove(client, three["id"], ann, 1), 409, "not_a_person"),  # an empty seat
        (remove(client, three["id"], ann, 2), 409, "not_a_person"),  # a bot's seat
    ]
    for r, status, want in refusals:
        assert (r.status_code, code(r)) == (status, want), r.text
    assert seats_version(app, tid) == before
    games.start(client, tid, ann)
    r = remove(client, tid, ann, 1)
    assert (r.status_code, code(r)) == (409, "wrong_status")  # the game started
    assert [s["name"] for s in lobby(client, tid, ann).json()["seats"]] == ["Ann", "Bob"]


def test_the_host_hands_the_role_to_another_seat(
    client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    t = games.open_table(client, [ann, bob, eve])
    tid = t["id"]
    r = hand(client, tid, ann, 2)
    assert r.status_code == 200, r.text
    assert [s["host"] for s in r.json()["seats"]] == [False, False, True]
    assert r.json()["host"] is False  # (the answer is Ann's view)
    assert lobby(client, tid, eve).json()["host"] is True
    # Ann is no longer the host: she cannot start, remove or hand over; Eve can
    assert code(client.post(f"/api/tables/{tid}/start", headers=ann.headers)) == "not_host"
    assert code(remove(client, tid, ann, 1)) == "not_host"
    assert code(hand(client, tid, ann, 0)) == "not_host"
    refusals = [
        (hand(client, tid, eve, 2), 409, "own_seat"),
        (hand(client, tid, bob, 0), 403, "not_host"),
        (hand(client, tid, eve, 5), 422, "malformed"),
        (hand(client, tid, eve, "1"), 422, "malformed"),
    ]
    for r, status, want in refusals:
        assert (r.status_code, code(r)) == (status, want), r.text
    # during the game too
    games.start(client, tid, eve)
    r = hand(client, tid, eve, 1)
    assert r.status_code == 200 and lobby(client, tid, bob).json()["host"] is True


def test_hand_over_needs_a_person_at_the_seat_and_an_open_table(
    client: TestClient, ann: Player, bob: Player
) -> None:
    t = client.post("/api/tables", json={"seats": 3}, headers=ann.headers).json()
    client.post(f"/api/tables/{t['id']}/seats/2/bot", json={"level": "random"},
                headers=ann.headers)  # fmt: skip
    assert (hand(client, t["id"], ann, 1).status_code, code(hand(client, t["id"], ann, 1))) == (
        409,
        "not_a_person",
    )
    assert code(hand(client, t["id"], ann, 2)) == "not_a_person"
    done = games.finish(client, [ann, bob], seed=2)
    r = hand(client, done, ann, 1)
    assert (r.status_code, code(r)) == (409, "wrong_status")


def test_the_removed_persons_socket_is_told_and_closes_the_others_see_the_lobby(
    live: LiveServer,
) -> None:
    http = Http(live)
    t, (ann, bob, cid) = setup_table(http, seats=3)
    tid = t["id"]

    async def go() -> None:
        socks = {}
        for name, p in (("ann", ann), ("bob", bob), ("cid", cid)):
            s = await Socket.open(live, tid, name, token=p["token"], invite=t["invite_code"])
            await s.expect("welcome")
            await s.send({"type": "hello", "since": None})
            await s.expect("lobby")
            socks[name] = s
        http.call("POST", f"/api/tables/{tid}/seats/1/remove", ann["token"])
        told = await socks["bob"].expect("error")
        assert told["code"] == "removed_from_table"
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await socks["bob"].expect("welcome")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        for name in ("ann", "cid"):
            frame = await socks[name].expect("lobby")
            while frame["table"]["seats"][1]["taken"]:
                frame = await socks[name].expect("lobby")
            assert [s["name"] for s in frame["table"]["seats"]] == ["Ann", None, "Cid"]
        # a new socket of Bob's is refused from the start
        again = await Socket.open(live, tid, "bob", token=bob["token"], invite=t["invite_code"])
        assert (await again.expect("error"))["code"] == "removed_from_table"
        for s in (socks["ann"], socks["cid"]):
            await s.close()

    run(go())
    http.close()
