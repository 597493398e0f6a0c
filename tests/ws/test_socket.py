"""The table socket against a real uvicorn on loopback, with the `websockets` client."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.conftest import LiveServer, SecretCanary, pick_move
from tests.ws.client import Http, Socket
from tests.ws.fakes import FakeClock


def run(coro: Any) -> Any:
    """Run a coroutine on a fresh event loop in its own thread (whatever the main thread holds)."""
    result: list[Any] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as exc:
            error.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]


def setup_table(http: Http, seats: int = 2, **options: Any) -> tuple[dict[str, Any], list[Any]]:
    players = [http.profile(n) for n in ("Ann", "Bob", "Cid", "Dan")[:seats]]
    t = http.call(
        "POST", "/api/tables", players[0]["token"], json={"seats": seats, "options": options}
    )
    for p in players[1:]:
        http.call(
            "POST",
            f"/api/tables/{t['id']}/join",
            p["token"],
            json={"invite_code": t["invite_code"]},
        )
    return t, players


async def until_version(sock: Socket, version: int) -> dict[str, Any]:
    """Read update/snapshot frames until one reaches ``version``."""
    while True:
        frame = await sock.expect_any(("update", "snapshot"))
        assert frame["version"] <= version, (frame["version"], version)
        if frame["version"] == version:
            return frame


def test_two_seats_play_a_whole_game_over_sockets(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, bob) = setup_table(http)
    eve = http.profile("Eve")
    tid, code = t["id"], t["invite_code"]

    async def play() -> dict[str, list[Any]]:
        sa = await Socket.open(live, tid, "ann", cookie=ann["token"])  # cookie auth
        sb = await Socket.open(live, tid, "bob", token=bob["token"])  # first-frame auth
        se = await Socket.open(live, tid, "eve", token=eve["token"], invite=code)  # spectator
        socks = [sa, sb, se]
        for s, seat in zip(socks, (0, 1, None), strict=True):
            welcome = await s.expect("welcome")
            assert welcome["seat"] == seat
            await s.send({"type": "hello", "since": None})
            lobby = await s.expect("lobby")
            assert lobby["table"]["status"] == "lobby"
        # the lobby fills in live, and the start reaches every socket
        http.call("POST", f"/api/tables/{tid}/start", ann["token"])
        latest: dict[int | None, dict[str, Any]] = {}
        for s, seat in zip(socks, (0, 1, None), strict=True):
            await s.expect("lobby", **{})
            snap = await s.expect("snapshot")
            assert snap["version"] == 0 and snap["seat"] == seat
            latest[seat] = snap
        assert latest[None]["view"]["me"] is None and latest[None]["legal_moves"] == []

        rng = random.Random(3)
        version, reconnected = 0, False
        by_seat = {0: sa, 1: sb}
        while latest[0]["status"] == "playing":
            to_act = latest[None]["view"]["to_act"]
            if not reconnected and version >= 30 and to_act == [0]:
                # Bob drops; Ann plays on; Bob comes back with the version he had
                reconnected = True
                bob_had = latest[1]["version"]
                await sb.close()
                socks = [sa, se]
                while latest[None]["view"]["to_act"] == [0] and latest[0]["status"] == "playing":
                    move = pick_move(latest[0]["legal_moves"], rng)
                    await sa.send(
                        {
                            "type": "move",
                            "move": move,
                            "expected_version": version,
                            "move_id": f"m{version}",
                        }
                    )
                    version += 1
                    for s, seat in ((sa, 0), (se, None)):
                        latest[seat] = await until_version(s, version)
                old_frames = sb.frames
                sb = await Socket.open(live, tid, "bob", token=bob["token"])
                sb.frames = old_frames + sb.frames
                by_seat[1] = sb
                await sb.expect("welcome")
                await sb.send({"type": "hello", "since": bob_had})
                caught = await sb.expect("update")
                assert caught["since"] == bob_had and caught["version"] == version
                assert [m["version"] for m in caught["moves"]] == list(
                    range(bob_had + 1, version + 1)
                )
                assert caught["seat"] == 1 and caught["view"]["me"]["seat"] == 1
                latest[1] = caught
                socks = [sa, sb, se]
                continue
            seat = to_act[0]
            move = pick_move(latest[seat]["legal_moves"], rng)
            move_id = f"m{version}"
            await by_seat[seat].send(
                {"type": "move", "move": move, "expected_version": version, "move_id": move_id}
            )
            ack = await by_seat[seat].expect("accepted", move_id=move_id)
            assert ack["version"] == version + 1 and ack["duplicate"] is False
            version += 1
            for s, who in zip(socks, (0, 1, None), strict=True):
                frame = await until_version(s, version)
                assert frame["type"] == "update" and frame["seat"] == who
                assert [m["version"] for m in frame["moves"]] == [version]
                assert frame["moves"][0]["seat"] == seat and frame["moves"][0]["move"] == move
                assert frame["view"]["me"] == (None if who is None else frame["view"]["me"])
                scores = {x["seat"]: x for x in frame["scores"]}
                assert set(scores) == {0, 1}
                for x in scores.values():
                    assert isinstance(x["cp"], int) and isinstance(x["bp"], int)
                latest[who] = frame
            assert version < 2000
        assert reconnected
        assert latest[0]["view"]["outcome"] is not None
        frames = {0: sa.frames, 1: sb.frames, None: se.frames}
        for s in socks:
            await s.close()
        return frames

    frames = run(play())
    http.close()
    canary = SecretCanary(live.app, tid)
    for seat, received in frames.items():
        assert canary.check(seat, received) > 10
    assert live.app.state.service.replay_matches(tid)


def test_stale_duplicate_and_bad_frames_keep_the_socket_open(live_factory: Any) -> None:
    live = live_factory(ws_max_frame_bytes=2048)
    http = Http(live)
    t, (ann, _bob) = setup_table(http, start_player=0)
    tid = t["id"]
    http.call("POST", f"/api/tables/{tid}/start", ann["token"])

    async def go() -> None:
        s = await Socket.open(live, tid, "ann", token=ann["token"])
        await s.send({"type": "hello", "since": None})
        snap = await s.expect("snapshot")
        move = snap["legal_moves"][0]
        await s.send({"type": "move", "move": move, "expected_version": 0, "move_id": "a"})
        ack = await s.expect_any(("accepted", "update"))  # the mover hears `accepted` first
        assert ack["type"] == "accepted" and ack["move_id"] == "a" and ack["version"] == 1
        update = await s.expect("update")
        assert update["version"] == 1 and update["moves"][0]["move"] == move
        # the same move_id again: the first result, nothing applied
        await s.send({"type": "move", "move": move, "expected_version": 0, "move_id": "a"})
        dup = await s.expect("accepted", move_id="a")
        assert dup["duplicate"] is True and dup["version"] == 1 and dup["events"] == ack["events"]
        # stale version
        await s.send({"type": "move", "move": move, "expected_version": 0, "move_id": "b"})
        err = await s.expect("error", move_id="b")
        assert err["code"] == "stale_version" and err["version"] == 1
        # illegal move
        await s.send(
            {"type": "move", "move": {"kind": "nonsense"}, "expected_version": 1, "move_id": "c"}
        )
        err = await s.expect("error", move_id="c")
        assert err["code"] == "illegal_move" and err["engine_code"]
        # malformed frames of every sort
        for raw in ('{"type": "move", "move": 3}', "not json", "[1,2]", '{"type": 5}'):
            await s.conn.send(raw)
            err = await s.expect("error")
            assert err["code"] == "malformed", raw
        await s.send({"type": "launch"})
        assert (await s.expect("error"))["code"] == "unknown_frame"
        await s.send({"type": "ping", "pad": "x" * 4000})
        err = await s.expect("error")
        assert err["code"] == "frame_too_large" and err["limit"] == 2048
        await s.close()

    run(go())
    game = http.call("GET", f"/api/tables/{tid}/game", ann["token"])
    assert game["version"] == 1 and len(game["log"]) == 1
    http.close()


def test_a_burst_beyond_the_rate_limit_is_refused_and_the_socket_stays_open(
    live_factory: Any,
) -> None:
    live = live_factory(ws_rate_burst=5, ws_rate_per_second=2.0)
    clock = FakeClock()
    live.app.state.clock = clock  # the socket's time: moved by the test, not waited for
    http = Http(live)
    t, (ann, _) = setup_table(http)

    async def go() -> None:
        s = await Socket.open(live, t["id"], "ann", cookie=ann["token"])
        await s.expect("welcome")
        for i in range(30):
            await s.send({"type": "ping", "ref": i})
        codes = []
        for _ in range(30):
            f = await s.expect_any(("pong", "error"))
            codes.append(f.get("code", "pong"))
        assert codes[:5] == ["pong"] * 5  # the burst
        assert codes[5:] == ["rate_limited"] * 25  # the clock stands still: no refill
        await s.send({"type": "ping", "ref": "still"})
        refused = await s.expect_any(("pong", "error"))
        assert refused["code"] == "rate_limited" and refused["ref"] == "still"
        clock.advance(0.5)  # one token back at 2 per second
        await s.send({"type": "ping", "ref": "after"})
        assert (await s.expect_any(("pong", "error"))) == {"type": "pong", "ref": "after"}
        await s.close()

    run(go())
    http.close()
    # /metrics counts them (emara_rate_limit_refusals_total{limit="socket_frames"})
    assert live.app.state.socket_registry.frames_refused == 26


def test_spectator_socket_cannot_move(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, _bob) = setup_table(http, start_player=0)
    eve = http.profile("Eve")
    tid = t["id"]
    http.call("POST", f"/api/tables/{tid}/start", ann["token"])

    async def go() -> None:
        s = await Socket.open(live, tid, "eve", token=eve["token"], invite=t["invite_code"])
        await s.send({"type": "hello", "since": None})
        snap = await s.expect("snapshot")
        assert snap["seat"] is None
        move = {"kind": "end_turn"}
        await s.send({"type": "move", "move": move, "expected_version": 0, "move_id": "x"})
        err = await s.expect("error", move_id="x")
        assert err["code"] == "not_your_seat"
        await s.close()

    run(go())
    http.close()


def test_origin_is_checked_at_the_handshake(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, _) = setup_table(http)

    async def go() -> None:
        with pytest.raises(InvalidStatus) as caught:
            await Socket.open(live, t["id"], "x", cookie=ann["token"], origin="http://evil.example")
        assert caught.value.response.status_code == 403
        for origin in (live.http, "http://allowed.example", None):
            s = await Socket.open(live, t["id"], "ann", cookie=ann["token"], origin=origin)
            assert (await s.expect("welcome"))["seat"] == 0
            await s.close()

    run(go())
    http.close()


def test_wrong_token_or_no_seat_closes_the_socket(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, _) = setup_table(http)
    eve = http.profile("Eve")
    t2 = http.call(
        "POST", "/api/tables", ann["token"], json={"seats": 2, "options": {"spectators": False}}
    )

    async def go() -> None:
        forged = ann["token"][:-3] + "abc"
        s = await Socket.open(live, t["id"], "x", token=forged)
        err = await s.expect("error")
        assert err["code"] == "unauthenticated"
        with pytest.raises(ConnectionClosed) as closed:
            await s.expect("welcome")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        # a bad cookie falls back to first-frame auth, which fails too
        s = await Socket.open(live, t["id"], "x", cookie="garbage")
        await s.send({"type": "hello", "since": None})
        assert (await s.expect("error"))["code"] == "unauthenticated"
        # a valid profile without a seat or the invite code: the table does not exist
        s = await Socket.open(live, t["id"], "eve", token=eve["token"])
        assert (await s.expect("error"))["code"] == "not_found"
        with pytest.raises(ConnectionClosed) as closed:
            await s.expect("welcome")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        # the invite code, but the table is closed to spectators
        s = await Socket.open(live, t2["id"], "eve", token=eve["token"], invite=t2["invite_code"])
        assert (await s.expect("error"))["code"] == "forbidden"
        with pytest.raises(ConnectionClosed) as closed:
            await s.expect("welcome")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403

    run(go())
    http.close()


def test_lobby_changes_are_pushed(live: LiveServer) -> None:
    http = Http(live)
    ann = http.profile("Ann")
    bob = http.profile("Bob")
    t = http.call("POST", "/api/tables", ann["token"], json={"seats": 2})
    tid = t["id"]

    async def go() -> None:
        s = await Socket.open(live, tid, "ann", cookie=ann["token"])
        await s.send({"type": "hello", "since": None})
        first = await s.expect("lobby")
        assert [x["name"] for x in first["table"]["seats"]] == ["Ann", None]
        http.call(
            "POST", f"/api/tables/{tid}/join", bob["token"], json={"invite_code": t["invite_code"]}
        )
        joined = await s.expect("lobby")
        assert [x["name"] for x in joined["table"]["seats"]] == ["Ann", "Bob"]
        http.call("POST", f"/api/tables/{tid}/leave", bob["token"])
        left = await s.expect("lobby")
        assert [x["name"] for x in left["table"]["seats"]] == ["Ann", None]
        http.call(
            "POST", f"/api/tables/{tid}/join", bob["token"], json={"invite_code": t["invite_code"]}
        )
        await s.expect("lobby")
        http.call("POST", f"/api/tables/{tid}/start", ann["token"])
        started = await s.expect("lobby")
        assert started["table"]["status"] == "playing"
        snap = await s.expect("snapshot")
        assert snap["version"] == 0 and snap["view"]["me"]["seat"] == 0
        await s.close()

    run(go())
    http.close()


def test_heartbeat_pings(live_factory: Any) -> None:
    live = live_factory(ws_heartbeat_seconds=0.2)
    http = Http(live)
    t, (ann, _) = setup_table(http)

    async def go() -> None:
        s = await Socket.open(live, t["id"], "ann", cookie=ann["token"])
        welcome = await s.expect("welcome")
        assert welcome["heartbeat"] == 0.2
        ping = await s.expect("ping")
        assert isinstance(ping["t"], int)
        await s.send({"type": "ping", "ref": 1})
        assert (await s.expect("pong"))["ref"] == 1
        await s.close()

    run(go())
    http.close()
