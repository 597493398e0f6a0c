"""Hostile socket clients against a real server: numbers no encoder can write, moves with such a
``ref``, too many sockets. Every frame gets an answer or a close; nothing is committed on a frame
that was refused."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.conftest import LiveServer
from tests.ws.client import Http, Socket
from tests.ws.test_socket import run, setup_table

UNENCODABLE_REFS = [str(10**30), str(-(2**64)), "[" * 300 + "]" * 300]


def test_unencodable_refs_get_an_error_and_the_socket_keeps_answering(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, bob) = setup_table(http, start_player=0)
    tid = t["id"]
    http.call("POST", f"/api/tables/{tid}/start", ann["token"])

    async def go() -> None:
        sa = await Socket.open(live, tid, "ann", cookie=ann["token"])
        sb = await Socket.open(live, tid, "bob", cookie=bob["token"])
        for s in (sa, sb):
            await s.send({"type": "hello", "since": None})
        snap = await sa.expect("snapshot")
        await sb.expect("snapshot")
        move = snap["legal_moves"][0]
        for i, ref in enumerate(UNENCODABLE_REFS):
            await sa.conn.send(f'{{"type": "ping", "ref": {ref}}}')
            err = await sa.expect_any(("error", "pong"))
            assert err["type"] == "error" and err["code"] == "malformed" and "ref" not in err
            await sa.send({"type": "ping", "ref": f"after{i}"})
            assert (await sa.expect_any(("pong", "error"))) == {"type": "pong", "ref": f"after{i}"}
            # a move with such a ref: refused before anything is done
            await sa.conn.send(
                '{"type": "move", "move": ' + _json(move) + ', "expected_version": 0, '
                f'"move_id": "m{i}", "ref": ' + ref + "}"
            )
            err = await sa.expect_any(("error", "accepted"))
            assert err["type"] == "error" and err["code"] == "malformed" and "ref" not in err
        # the same move with a good ref goes through, and it is the first one
        await sa.send(
            {"type": "move", "move": move, "expected_version": 0, "move_id": "ok", "ref": 5}
        )
        ack = await sa.expect_any(("accepted", "error"))
        assert ack["type"] == "accepted" and ack["version"] == 1 and ack["ref"] == 5
        assert (await sb.expect("update"))["version"] == 1
        for s in (sa, sb):
            await s.close()

    run(go())
    game = http.call("GET", f"/api/tables/{tid}/game", ann["token"])
    assert game["version"] == 1 and len(game["log"]) == 1
    http.close()


def test_refused_moves_echo_their_ref(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, _bob) = setup_table(http, start_player=0)
    tid = t["id"]
    http.call("POST", f"/api/tables/{tid}/start", ann["token"])

    async def go() -> None:
        s = await Socket.open(live, tid, "ann", cookie=ann["token"])
        await s.send({"type": "hello", "since": None})
        snap = await s.expect("snapshot")
        move = snap["legal_moves"][0]
        await s.send(
            {"type": "move", "move": move, "expected_version": 3, "move_id": "a", "ref": 1}
        )
        err = await s.expect("error")
        assert (err["code"], err["ref"], err["move_id"]) == ("stale_version", 1, "a")
        bad = {"kind": "nonsense"}
        await s.send(
            {"type": "move", "move": bad, "expected_version": 0, "move_id": "b", "ref": "r"}
        )
        err = await s.expect("error")
        assert (err["code"], err["ref"]) == ("illegal_move", "r")
        await s.send({"type": "launch", "ref": "u"})
        assert (await s.expect("error")) | {"message": ""} == {
            "type": "error",
            "code": "unknown_frame",
            "message": "",
            "ref": "u",
        }
        await s.close()

    run(go())
    http.close()


async def _refused(sock: Socket, per: str) -> None:
    err = await sock.expect("error")
    assert err["code"] == "too_many_sockets" and err["per"] == per
    with pytest.raises(ConnectionClosed) as closed:
        await sock.expect("welcome")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429


def test_socket_caps_per_profile_address_and_table(live_factory: Any) -> None:
    live = live_factory(ws_max_per_profile=2, ws_max_per_address=3, ws_max_per_table=100)
    http = Http(live)
    t, (ann, bob) = setup_table(http)

    async def go() -> None:
        open_ = [await Socket.open(live, t["id"], "ann", cookie=ann["token"]) for _ in range(2)]
        for s in open_:
            await s.expect("welcome")
        await _refused(await Socket.open(live, t["id"], "ann", cookie=ann["token"]), "profile")
        sb = await Socket.open(live, t["id"], "bob", cookie=bob["token"])
        await sb.expect("welcome")
        await _refused(await Socket.open(live, t["id"], "bob", cookie=bob["token"]), "address")
        await open_[0].close()  # a closed socket frees its place
        again = await Socket.open(live, t["id"], "bob", cookie=bob["token"])
        assert (await again.expect("welcome"))["seat"] == 1
        for s in (open_[1], sb, again):
            await s.close()

    run(go())
    http.close()
    table_cap = live_factory(ws_max_per_table=2)
    http = Http(table_cap)
    t, (ann, bob) = setup_table(http)
    eve = http.profile("Eve")

    async def crowd() -> None:
        sa = await Socket.open(table_cap, t["id"], "ann", cookie=ann["token"])
        sb = await Socket.open(table_cap, t["id"], "bob", cookie=bob["token"])
        for s in (sa, sb):
            await s.expect("welcome")
        se = await Socket.open(
            table_cap, t["id"], "eve", cookie=eve["token"], invite=t["invite_code"]
        )
        await _refused(se, "table")
        for s in (sa, sb):
            await s.close()

    run(crowd())
    http.close()


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
