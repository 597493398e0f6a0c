"""A limit of N a second served evenly: one client's requests of a kind spaced 1/N seconds
apart, so that a window's allowance does not arrive as one burst.

A fixed window lets its N requests through as fast as they come, all at the window's start; a
few clients looping on a costly read then put N requests' work in front of everyone else's each
second. ``Spacer.wait`` holds a request until 1/N seconds after the same client's previous one
(the browser's replay viewer asks no faster than that, so a person never waits). A request that
would wait longer than ``MAX_WAIT_SECONDS`` goes on at once and meets the limit's refusal; at most
``MAX_SPACED`` wait at once, so holding is bounded in memory.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from app.clock import Clock

MAX_WAIT_SECONDS = 1.0
MAX_SPACED = 256
CLIENTS_KEPT = 4096


class Spacer:
    def __init__(
        self, clock: Clock, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> None:
        self.clock = clock
        self._sleep = sleep
        self._next: OrderedDict[str, float] = OrderedDict()  # the client's next free moment
        self._waiting = 0

    async def wait(self, who: str, interval: float) -> None:
        """Wait until ``interval`` seconds after ``who``'s previous request (0: at once)."""
        if interval <= 0:
            return
        now = self.clock.monotonic()
        slot = max(now, self._next.get(who, now))
        if slot - now > MAX_WAIT_SECONDS or (slot > now and self._waiting >= MAX_SPACED):
            return  # past what holding may cost: the limit decides
        self._next[who] = slot + interval
        self._next.move_to_end(who)
        while len(self._next) > CLIENTS_KEPT:
            self._next.popitem(last=False)
        if slot > now:
            self._waiting += 1
            try:
                await self._sleep(slot - now)
            finally:
                self._waiting -= 1
