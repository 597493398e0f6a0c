"""Since you looked over the table socket: the ``seen`` frame moves the mark of the seat the
profile holds when it arrives, as ``POST /api/tables/{id}/seen`` does (tests/api/test_seen.py)."""

from __future__ import annotations

from typing import Any

from tests.conftest import LiveServer
from tests.ws.client import Http, Socket
from tests.ws.test_socket import run, setup_table


def since(http: Http, tid: str, token: str) -> Any:
    return http.call("GET", f"/api/tables/{tid}/since", token)


def test_the_seen_frame_marks_the_seat_held_now_and_refuses_what_it_may_not(
    live: LiveServer,
) -> None:
    http = Http(live)
    t, (ann, bob) = setup_table(http)
    tid, code = t["id"], t["invite_code"]
    eve = http.profile("Eve")

    async def scenario() -> None:
        sa = await Socket.open(live, tid, "ann", token=ann["token"])
        se = await Socket.open(live, tid, "eve", token=eve["token"], invite=code)
        for s in (sa, se):
            await s.expect("welcome")
            await s.send({"type": "hello", "since": None})
            await s.expect("lobby")
        # before the start there is no game to have seen
        await sa.send({"type": "seen", "version": 0, "ref": 1})
        early = await sa.expect("error")
        assert early["ref"] == 1 and early["code"] == "wrong_status"
        http.call("POST", f"/api/tables/{tid}/start", ann["token"])
        await sa.expect("snapshot")
        await se.expect("snapshot")
        games = [(p, http.call("GET", f"/api/tables/{tid}/game", p["token"])) for p in (ann, bob)]
        mover, g = next((p, g) for p, g in games if g["legal_moves"])
        move = {"move": g["legal_moves"][0], "expected_version": g["version"], "move_id": "m1"}
        moved = http.call("POST", f"/api/tables/{tid}/moves", mover["token"], json=move)
        version = moved["version"]
        assert version > 0  # a mark there differs from none
        await sa.send({"type": "seen", "version": version, "ref": "r2"})
        marked = await sa.expect("seen_marked")
        assert marked == {"type": "seen_marked", "last_seen_version": version, "ref": "r2"}
        assert since(http, tid, ann["token"])["last_seen_version"] == version
        # a version the table has not reached changes nothing
        await sa.send({"type": "seen", "version": version + 50, "ref": 3})
        stale = await sa.expect("error")
        assert stale["code"] == "stale_version" and stale["ref"] == 3
        assert since(http, tid, ann["token"])["last_seen_version"] == version
        # a spectator holds no seat: nothing to mark, and Ann's and Bob's marks stay
        await se.send({"type": "seen", "version": version, "ref": 4})
        refused = await se.expect("error")
        assert refused["code"] == "not_your_seat" and refused["ref"] == 4
        assert since(http, tid, bob["token"])["last_seen_version"] == 0
        # malformed: a version is a whole number of at least 0
        await sa.send({"type": "seen", "version": -1, "ref": 5})
        bad = await sa.expect("error")
        assert bad["code"] == "malformed" and bad["ref"] == 5
        for s in (sa, se):
            await s.close()

    run(scenario())
