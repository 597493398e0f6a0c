"""Table chat and presence over the real socket (uvicorn on loopback), SQLite and Postgres."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.conftest import LiveServer
from tests.ws.client import Http, Socket
from tests.ws.test_socket import run, setup_table

HOSTILE = ["<script>alert(1)</script>", '<img src=x onerror="alert(1)">']


async def joined(live: LiveServer, tid: str, name: str, token: str, **kw: Any) -> Socket:
    s = await Socket.open(live, tid, name, token=token, **kw)
    await s.expect("welcome")
    await s.send({"type": "hello", "since": None})
    await s.expect("lobby")
    await s.expect("chat_history")
    return s


def stored(live: LiveServer, tid: str) -> list[str]:
    from sqlalchemy import select

    from app.db.models import ChatMessage

    with live.app.state.db.session() as s:
        return list(s.scalars(select(ChatMessage.text).where(ChatMessage.table_id == tid)))


def test_chat_reaches_every_socket_once_and_a_retry_is_not_a_copy(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, bob) = setup_table(http)
    tid = t["id"]

    async def scenario() -> None:
        sa = await joined(live, tid, "ann", ann["token"])
        sb = await joined(live, tid, "bob", bob["token"])
        await sa.send({"type": "chat", "text": "hello Bob", "msg_id": "m1", "ref": 7})
        ok = await sa.expect("chat_accepted")
        assert ok["ref"] == 7 and ok["msg_id"] == "m1" and ok["duplicate"] is False
        for s in (sa, sb):
            got = await s.expect("chat")
            assert got["text"] == "hello Bob" and got["seat"] == 0 and got["name"] == "Ann"
            assert got["id"] == ok["id"]
        # the same msg_id again (a retry after a reconnect): the first result, no copy
        await sa.close()
        sa = await joined(live, tid, "ann", ann["token"])
        history = sa.frames[-1]
        assert [m["text"] for m in history["messages"]] == ["hello Bob"]
        await sa.send({"type": "chat", "text": "hello Bob", "msg_id": "m1", "ref": "r2"})
        again = await sa.expect("chat_accepted")
        assert again["id"] == ok["id"] and again["duplicate"] is True and again["ref"] == "r2"
        # a later message arrives once on each socket: the retry was not broadcast
        await sb.send({"type": "chat", "text": "hi", "msg_id": "b1"})
        for s in (sa, sb):
            got = await s.expect("chat")
            assert got["text"] == "hi"
        chats = [f for f in sb.frames if f.get("type") == "chat"]
        assert [c["text"] for c in chats] == ["hello Bob", "hi"]
        for s in (sa, sb):
            await s.close()

    run(scenario())
    assert stored(live, tid) == ["hello Bob", "hi"]


def test_hostile_chat_gets_typed_errors_and_stores_only_plain_text(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, _bob) = setup_table(http)
    tid = t["id"]

    async def scenario() -> None:
        sa = await joined(live, tid, "ann", ann["token"])
        cases = [
            ("x" * 10_000, "chat_too_long"),
            ("   \n\t ", "chat_empty"),
            ("", "chat_empty"),
            ("\x01\x07\x1b", "chat_empty"),
        ]
        for n, (text, code) in enumerate(cases):
            await sa.send({"type": "chat", "text": text, "msg_id": f"bad{n}", "ref": n})
            err = await sa.expect("error", ref=n)
            assert err["code"] == code, err
            assert err["msg_id"] == f"bad{n}"
        for n, text in enumerate(HOSTILE):
            await sa.send({"type": "chat", "text": text, "msg_id": f"h{n}", "ref": f"h{n}"})
            await sa.expect("chat_accepted", ref=f"h{n}")
            got = await sa.expect("chat", msg_id=f"h{n}")
            assert got["text"] == text  # as written: plain text, for textContent
        # a NUL is refused at the border, before the chat sees it (no database stores one)
        await sa.send({"type": "chat", "text": "a\x00b", "msg_id": "nul", "ref": "nul"})
        assert (await sa.expect("error", ref="nul"))["code"] == "malformed"
        await sa.send({"type": "chat", "text": "a\x01b\x1b[31mc\u202ed\nline", "msg_id": "ctl"})
        got = await sa.expect("chat", msg_id="ctl")
        assert got["text"] == "ab[31mcd\nline"  # control characters stripped, \n kept
        await sa.close()

    run(scenario())
    assert stored(live, tid) == [*HOSTILE, "ab[31mcd\nline"]


def test_a_flood_past_the_chat_rate_limit_is_refused_with_retry_after(live_factory: Any) -> None:
    # A slow refill: no token comes back while the test runs, however slow the machine.
    live = live_factory(chat_rate_per_second=0.001, chat_rate_burst=10)
    http = Http(live)
    t, (ann, _bob) = setup_table(http)
    tid = t["id"]

    async def scenario() -> list[dict[str, Any]]:
        sa = await joined(live, tid, "ann", ann["token"])
        for n in range(14):
            await sa.send({"type": "chat", "text": f"spam {n}", "msg_id": f"s{n}", "ref": n})
        answers = [await sa.expect_any(("chat_accepted", "error")) for _ in range(14)]
        await sa.close()
        return answers

    answers = run(scenario())
    accepted = [a for a in answers if a["type"] == "chat_accepted"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(accepted) == 10 and len(refused) == 4
    assert all(r["code"] == "chat_rate_limited" and r["retry_after"] >= 1 for r in refused)
    assert len(stored(live, tid)) == 10


def test_spectators_read_and_write_only_when_the_host_allows(live: LiveServer) -> None:
    http = Http(live)
    for allowed in (False, True):
        t, _players = setup_table(http, spectator_chat=allowed)
        eve = http.profile("Eve")
        tid, code = t["id"], t["invite_code"]

        async def scenario(tid: str, token: str, code: str) -> dict[str, Any]:
            se = await joined(live, tid, "eve", token, invite=code)
            await se.send({"type": "chat", "text": "from the rail", "msg_id": "e1", "ref": 1})
            answer = await se.expect_any(("chat_accepted", "error"))
            await se.close()
            return answer

        answer = run(scenario(tid, eve["token"], code))
        if allowed:
            assert answer["type"] == "chat_accepted"
            assert stored(live, tid) == ["from the rail"]
        else:
            assert answer["code"] == "chat_not_allowed"
            assert stored(live, tid) == []


def test_presence_frames_and_lobby_fields_follow_the_sockets(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, bob) = setup_table(http)
    tid = t["id"]

    def seat_of(frame: dict[str, Any], seat: int) -> dict[str, Any]:
        return next(s for s in frame["seats"] if s["seat"] == seat)

    async def scenario() -> None:
        sa = await joined(live, tid, "ann", ann["token"])
        sb = await Socket.open(live, tid, "bob", token=bob["token"])
        await sb.expect("welcome")
        while True:  # Ann hears Bob arrive
            frame = await sa.expect("presence")
            if seat_of(frame, 1)["present"]:
                break
        lobby = await asyncio.to_thread(http.call, "GET", f"/api/tables/{tid}", ann["token"])
        assert [s["present"] for s in lobby["seats"]] == [True, True]
        await sb.close()
        while True:  # ... and leave, with the time
            frame = await sa.expect("presence")
            if not seat_of(frame, 1)["present"]:
                assert seat_of(frame, 1)["last_seen"] is not None
                break
        lobby = await asyncio.to_thread(http.call, "GET", f"/api/tables/{tid}", ann["token"])
        assert lobby["seats"][1]["present"] is False and lobby["seats"][1]["last_seen"]
        await sa.close()

    run(scenario())


def test_presence_heard_before_a_hello_follows_the_hellos_lobby(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, bob) = setup_table(http)
    tid = t["id"]

    async def scenario() -> None:
        sa = await Socket.open(live, tid, "ann", token=ann["token"])
        await sa.expect("welcome")
        sb = await joined(live, tid, "bob", bob["token"])  # Bob arrives, Ann has said no hello
        while True:  # Bob hears both seats present: the presence notices went round
            frame = await sb.expect("presence")
            if all(s["present"] for s in frame["seats"]):
                break
        await sa.send({"type": "hello", "since": None})
        first = await sa.expect_any(("lobby", "presence", "snapshot", "chat_history"))
        assert first["type"] == "lobby", first
        await sa.expect("presence")  # Ann still hears who is here, after the lobby
        await sa.close()
        await sb.close()

    run(scenario())
