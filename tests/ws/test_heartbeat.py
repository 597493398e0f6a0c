"""One heartbeat task ticks every open socket of the process, and ends with the last one."""

from __future__ import annotations

import asyncio

from app.realtime.heartbeat import Heartbeat


class Sock:
    def __init__(self, done: asyncio.Event, others: list[Sock]) -> None:
        self.ticks = 0
        self.done, self.others = done, others

    def tick(self) -> None:
        self.ticks += 1
        if all(s.ticks >= 3 for s in self.others):
            self.done.set()


class Broken:
    def tick(self) -> None:
        raise RuntimeError("a socket whose tick fails")


def test_one_task_ticks_every_socket_and_ends_with_the_last() -> None:
    async def go() -> None:
        beat = Heartbeat()
        done = asyncio.Event()
        socks: list[Sock] = []
        socks += [Sock(done, socks) for _ in range(200)]
        for s in socks:
            beat.add(s, 0.001)
        beat.add(Broken(), 0.001)  # logged, and the others keep their heartbeat
        assert len(asyncio.all_tasks()) == 2  # this test and the one heartbeat
        await asyncio.wait_for(done.wait(), 30)
        assert all(s.ticks >= 3 for s in socks)
        task = beat._task
        assert task is not None
        for s in list(beat._sockets):
            beat.remove(s)
        await asyncio.wait_for(task, 30)  # no socket left: the task ends by itself
        assert len(beat) == 0 and beat._task is None
        before = [s.ticks for s in socks]
        beat.add(socks[0], 0.001)  # a new socket starts it again
        assert beat._task is not None and not beat._task.done()
        await beat.stop()
        assert [s.ticks for s in socks][1:] == before[1:]

    asyncio.run(go())
