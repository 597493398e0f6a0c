"""The hub never waits: local listeners hear a notice at once, each background subscriber gets it
through its own queue and task, and a slow or failing subscriber holds nobody up."""

from __future__ import annotations

import asyncio

from app.realtime.hub import Hub, Notice, NoticeQueue


def test_publish_hands_notices_over_without_waiting() -> None:
    async def scenario() -> None:
        hub = Hub()
        gate = asyncio.Event()
        slow_heard: list[Notice] = []
        fast_heard: list[Notice] = []

        async def slow(notice: Notice) -> None:
            await gate.wait()  # blocked until the test opens it
            slow_heard.append(notice)

        async def failing_then_fast(notice: Notice) -> None:
            if notice.version == 1:
                raise RuntimeError("a subscriber failed")
            fast_heard.append(notice)

        subscribers = [NoticeQueue("slow", slow), NoticeQueue("fast", failing_then_fast)]
        for sub in subscribers:
            hub.background.append(sub)
            sub.start()
        socket: asyncio.Queue[object] = asyncio.Queue()
        hub.subscribe("t", socket)

        hub.publish(Notice("t", "game", 1))  # a plain call: nothing to await
        hub.publish(Notice("t", "game", 2))
        assert socket.qsize() == 2  # the local listener has both already
        await subscribers[1].drained()  # the fast one went on after its failure
        assert [n.version for n in fast_heard] == [2]
        assert slow_heard == []  # the slow one is still stuck on the first notice
        gate.set()
        await subscribers[0].drained()
        assert [n.version for n in slow_heard] == [1, 2]
        for sub in subscribers:
            await sub.stop()

    asyncio.run(scenario())


def test_a_full_queue_drops_the_notice_and_says_so(caplog: object) -> None:
    async def scenario() -> None:
        async def never(_: Notice) -> None:  # pragma: no cover - its task is never started
            raise AssertionError

        sub = NoticeQueue("tiny", never, maxsize=1)
        sub.offer(Notice("t", "game", 1))
        sub.offer(Notice("t", "game", 2))  # dropped, not raised
        assert sub.queue.qsize() == 1

    asyncio.run(scenario())
