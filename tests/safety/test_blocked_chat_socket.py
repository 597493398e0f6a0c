"""A block holds on the table socket too, on both databases: the history a socket gets after
its hello leaves out the people its profile blocked, and so does every new message — the other
sockets of the table get them as before. Judged in the server's read, never by the client."""

from __future__ import annotations

import pytest

from tests.conftest import LiveServer
from tests.ws.client import Http, Socket
from tests.ws.test_socket import run, setup_table

pytestmark = pytest.mark.both_databases


async def joined(live: LiveServer, tid: str, name: str, token: str) -> Socket:
    s = await Socket.open(live, tid, name, token=token)
    await s.expect("welcome")
    await s.send({"type": "hello", "since": None})
    await s.expect("lobby")
    return s


def test_a_blocked_persons_messages_never_reach_the_blockers_sockets(live: LiveServer) -> None:
    http = Http(live)
    t, (ann, bob, cid) = setup_table(http, seats=3)
    tid = t["id"]

    async def go() -> None:
        sb = await joined(live, tid, "bob", bob["token"])
        await sb.expect("chat_history")
        await sb.send({"type": "chat", "text": "before the block", "msg_id": "b1"})
        await sb.expect("chat_accepted")
        http.call("POST", f"/api/tables/{tid}/blocks", ann["token"], json={"seat": 1})
        sa = await joined(live, tid, "ann", ann["token"])
        history = await sa.expect("chat_history")
        assert history["messages"] == []
        sc = await joined(live, tid, "cid", cid["token"])
        history = await sc.expect("chat_history")
        assert [m["text"] for m in history["messages"]] == ["before the block"]
        await sb.send({"type": "chat", "text": "are you there", "msg_id": "b2"})
        await sb.expect("chat_accepted")
        await sc.send({"type": "chat", "text": "cid speaks", "msg_id": "c1"})
        assert (await sc.expect("chat", text="are you there"))["seat"] == 1
        await sc.expect("chat", text="cid speaks")
        got = await sa.expect("chat")  # Cid's, written after Bob's: Bob's never came
        assert got["text"] == "cid speaks"
        assert [f["text"] for f in sa.frames if f.get("type") == "chat"] == ["cid speaks"]
        for s in (sa, sb, sc):
            await s.close()

    run(go())
    http.close()
