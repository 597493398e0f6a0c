"""A socket's chat feed: each message once, also one that commits after a higher id."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi.testclient import TestClient

from tests.chat.test_chat_api import table_of
from tests.conftest import Player


class Outbox:
    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    def put_text(self, data: str) -> bool:
        self.frames.append(json.loads(data))
        return True

    def put_nowait(self, notice: object) -> None:
        pass


def test_each_message_reaches_a_socket_once_even_when_it_commits_late(
    app: Any, client: TestClient, ann: Player, bob: Player
) -> None:
    from app.chat.feed import Feed
    from app.db.models import ChatMessage
    from app.realtime.hub import Notice
    from app.tables.types import Viewer

    tid = table_of(client, ann, bob)["id"]
    viewer = Viewer(tid, 0, ann.id)
    out = Outbox()
    feed = Feed(app.state.companions, tid, lambda: viewer, out.put_text)

    def store(text: str, msg_id: str, id_: int | None = None) -> None:
        with app.state.db.session() as s:
            s.add(
                ChatMessage(
                    id=id_,
                    table_id=tid,
                    profile_id=bob.id,
                    seat=1,
                    name="Bob",
                    text=text,
                    msg_id=msg_id,
                )
            )

    async def notice() -> None:
        feed.put_nowait(Notice(tid, "chat"))
        await feed.step()

    async def scenario() -> None:
        store("one", "a", 1000)
        feed.put_nowait(Notice(tid, "chat"))  # before the hello: the history brings it
        feed.hello()
        await feed.step()
        store("three", "c", 1003)  # committed first ...
        await notice()
        store("two", "b", 1002)  # ... this one, with a lower id, after it
        await notice()
        await notice()  # nothing new: nothing sent
        feed.put_nowait(Notice(tid, "presence"))
        await feed.step()

    asyncio.run(scenario())
    kinds = [f["type"] for f in out.frames]
    assert kinds == ["chat_history", "chat", "chat", "presence"]
    assert [m["text"] for m in out.frames[0]["messages"]] == ["one"]
    assert [f["text"] for f in out.frames[1:3]] == ["three", "two"]
    assert out.frames[3]["seats"] == [
        {"seat": 0, "present": False, "last_seen": None},
        {"seat": 1, "present": False, "last_seen": None},
    ]
