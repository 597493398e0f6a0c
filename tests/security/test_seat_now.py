"""A socket acts, and receives, only for the seat its profile holds *now*.

Bob sits at seat 1, leaves, and Cid takes that seat before the game starts. Whatever Bob still
holds (a socket opened while he sat there, a viewer object from then) must not play, chat or
see as seat 1 any more: the move's transaction, the chat's and every rendered frame judge the
seat from the database at that moment (on SQLite and Postgres; two instances in
tests/multi/test_seat_now.py).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from app.chat.errors import ChatNotAllowed
from app.errors import NotFound, NotYourSeat
from app.realtime.hub import Notice
from app.realtime.ports import Render
from app.tables.types import Viewer
from tests.conftest import LiveServer, Player, new_player
from tests.ws.client import Http, Socket
from tests.ws.fakes import FakeViewer, connection, snapshot
from tests.ws.test_socket import run


def _seat_taken_over(client: TestClient, ann: Player, bob: Player, cid: Player) -> str:
    """Ann's 2-seat table: Bob sits at seat 1, leaves, Cid sits there; Ann starts."""
    t = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
    tid, code = t["id"], t["invite_code"]
    for who in (bob,):
        r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=who.headers)
        assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{tid}/leave", headers=bob.headers).status_code == 200
    r = client.post(f"/api/tables/{tid}/join", json={"invite_code": code}, headers=cid.headers)
    assert r.status_code == 200 and r.json()["seats"][1]["name"] == "Cid", r.text
    assert client.post(f"/api/tables/{tid}/start", headers=ann.headers).status_code == 200
    return str(tid)


def test_a_move_is_judged_by_the_seat_held_in_its_transaction(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    cid = new_player(client, "Cid")
    tid = _seat_taken_over(client, ann, bob, cid)
    svc = app.state.service
    game = client.get(f"/api/tables/{tid}/game", headers=cid.headers).json()
    stale = Viewer(tid, 1, bob.id)  # what Bob's socket knew when it opened
    moves = game["legal_moves"] or [{"kind": "end_turn"}]
    with pytest.raises(NotYourSeat):
        client.portal.call(svc.submit_move, stale, moves[0], game["version"], "bob-1")  # type: ignore[union-attr]
    after = client.get(f"/api/tables/{tid}/game", headers=cid.headers).json()
    assert after["version"] == game["version"] and after["log"] == game["log"]
    # The seat's holder still plays it (when it is seat 1's turn at all).
    if game["legal_moves"]:
        out = client.portal.call(  # type: ignore[union-attr]
            svc.submit_move, Viewer(tid, 1, cid.id), moves[0], game["version"], "cid-1"
        )
        assert out["version"] == game["version"] + 1


def test_a_chat_message_is_written_as_the_seat_held_now(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    cid = new_player(client, "Cid")
    tid = _seat_taken_over(client, ann, bob, cid)
    chat = app.state.chat
    with pytest.raises(ChatNotAllowed):  # Bob looks on now; spectators do not write here
        client.portal.call(chat.post, Viewer(tid, 1, bob.id), "I am seat 1", "b1")  # type: ignore[union-attr]
    posted = client.portal.call(chat.post, Viewer(tid, None, cid.id), "hello", "c1")  # type: ignore[union-attr]
    assert posted.message["seat"] == 1 and posted.message["name"] == "Cid"
    history = client.get(f"/api/tables/{tid}/chat", headers=ann.headers).json()
    assert [m["text"] for m in history["messages"]] == ["hello"]


def test_a_socket_whose_profile_left_its_seat_is_told_and_closed(live: LiveServer) -> None:
    http = Http(live)
    ann, bob, cid = (http.profile(n) for n in ("Ann", "Bob", "Cid"))
    t = http.call("POST", "/api/tables", ann["token"], json={"seats": 2})
    tid, code = t["id"], t["invite_code"]
    http.call("POST", f"/api/tables/{tid}/join", bob["token"], json={"invite_code": code})

    async def go() -> None:
        sb = await Socket.open(live, tid, "bob", cookie=bob["token"])
        assert (await sb.expect("welcome"))["seat"] == 1
        await sb.send({"type": "hello", "since": None})
        await sb.expect("lobby")
        http.call("POST", f"/api/tables/{tid}/leave", bob["token"])
        lost = await sb.expect("error", code="seat_lost")
        assert lost["message"]
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await sb.expect("never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        http.call("POST", f"/api/tables/{tid}/join", cid["token"], json={"invite_code": code})
        http.call("POST", f"/api/tables/{tid}/start", ann["token"])
        assert not [f for f in sb.frames if f.get("type") in ("snapshot", "update")]

    run(go())
    http.close()


def test_a_render_for_a_seat_now_held_by_another_profile_is_never_sent() -> None:
    """Whatever the socket believed (its lobby refresh may have failed), a frame rendered for
    a seat goes only to the profile that held the seat at the rendered version: otherwise the
    viewer is judged again, and the socket is told and served as what it is now."""

    async def go() -> None:
        conn, transport, access, _ = connection()
        task = asyncio.create_task(conn.run("good"))
        assert json.loads(await transport.next())["seat"] == 0
        transport.push('{"type": "hello", "since": null}')
        assert json.loads(await transport.next())["type"] == "lobby"
        assert json.loads(await transport.next())["seat"] == 0  # p1 holds seat 0

        async def taken(
            viewer: Any, since: int | None, force: bool, shared: bool = True, deltas: bool = False
        ) -> Any:
            return Render(1, snapshot(1, viewer.seat), {0: "p2"})  # seat 0 is p2's now

        async def looks_on(profile_id: str, table_id: str, invite: str | None) -> FakeViewer:
            return FakeViewer(table_id, None)

        access.catch_up = taken  # type: ignore[method-assign]
        access.viewer = looks_on  # type: ignore[method-assign]
        for listener in access.listeners:
            listener.put_nowait(Notice("t1", "game", 1))
        sent = [json.loads(await transport.next()) for _ in range(3)]
        assert sent[0]["type"] == "error" and sent[0]["code"] == "seat_lost"
        assert sent[0]["seat"] is None
        assert sent[1]["type"] == "lobby"
        assert sent[2]["type"] == "snapshot" and sent[2]["seat"] is None
        assert sent[2]["view"]["me"] is None  # the spectator's render, never seat 0's hand
        conn.finish(1000)
        await asyncio.wait_for(task, 10)

    asyncio.run(go())


def test_a_socket_that_may_no_longer_look_on_is_closed() -> None:
    async def go() -> None:
        conn, transport, access, _ = connection()
        task = asyncio.create_task(conn.run("good"))
        await transport.next()
        transport.push('{"type": "hello", "since": null}')
        await transport.next()
        await transport.next()

        async def taken(
            viewer: Any, since: int | None, force: bool, shared: bool = True, deltas: bool = False
        ) -> Any:
            return Render(1, snapshot(1, 0), {0: "p2"})

        async def gone(profile_id: str, table_id: str, invite: str | None) -> FakeViewer:
            raise NotFound("no such table")

        access.catch_up = taken  # type: ignore[method-assign]
        access.viewer = gone  # type: ignore[method-assign]
        for listener in access.listeners:
            listener.put_nowait(Notice("t1", "game", 1))
        lost = json.loads(await transport.next())
        assert lost["code"] == "seat_lost"
        await asyncio.wait_for(task, 10)
        assert transport.closed is not None and transport.closed[0] == 4403
        while not transport.sent.empty():
            assert json.loads(transport.sent.get_nowait())["type"] != "snapshot"

    asyncio.run(go())
