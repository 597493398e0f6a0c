"""The My games event stream, in process: its lifetime by the injected clock, heartbeats, the
end on shutdown, and that it always unregisters."""

from __future__ import annotations

import asyncio
from typing import Any

from app.clock import ManualClock
from app.mygames.events import MeFeed, event_line


def test_stream_says_hello_passes_events_and_ends_when_its_time_is_up(app: Any) -> None:
    clock = ManualClock(1000.0)
    feed = MeFeed(app.state.db, clock, per_profile=2, heartbeat=30.0, max_seconds=60.0)

    async def scenario() -> list[bytes]:
        q = feed.open("p1")
        stream = feed.stream("p1", q)
        got = [await anext(stream)]
        q.put_nowait(event_line("tables", {"table_id": "t1"}))
        got.append(await anext(stream))
        clock.advance(61)
        try:
            got.append(await anext(stream))
        except StopAsyncIteration:
            got.append(b"<end>")
        return got

    hello, event, end = asyncio.run(scenario())
    assert hello.startswith(b"retry: 5000\nevent: hello\n")
    assert event == b'event: tables\ndata: {"table_id":"t1"}\n\n'
    assert end == b"<end>"
    assert feed.streams == {}


def test_heartbeat_when_idle_and_end_on_shutdown(app: Any) -> None:
    feed = MeFeed(app.state.db, ManualClock(), heartbeat=0.0)

    async def scenario() -> list[bytes]:
        feed.start()
        q = feed.open("p1")
        stream = feed.stream("p1", q)
        got = [await anext(stream), await anext(stream)]  # hello, then nothing came: heartbeat
        await feed.stop()  # shutdown: every stream ends
        got.extend([chunk async for chunk in stream if not chunk.startswith(b":")])
        return got

    got = asyncio.run(scenario())
    assert got[1] == b": heartbeat\n\n"
    assert len(got) == 2
    assert feed.streams == {}
