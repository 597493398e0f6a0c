"""Costly reads come evenly and refusals are let go apart: a limit of N a second spaces one
address's requests 1/N seconds apart (app/ratelimit/spacing.py), and the clients held after a
refusal are let go at different moments (RateLimiter.hold), so neither arrives as one burst."""

from __future__ import annotations

import asyncio

from app.clock import ManualClock
from app.ratelimit import LimitName, RateLimiter, parse_rule, storage_for
from app.ratelimit.spacing import CLIENTS_KEPT, MAX_WAIT_SECONDS, Spacer


class Waits:
    """A sleep that records what it was asked (no time passes)."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(round(seconds, 6))


def test_one_clients_requests_are_spaced_and_others_are_not() -> None:
    clock = ManualClock()
    waits = Waits()
    spacer = Spacer(clock, waits)

    async def go() -> None:
        for _ in range(3):
            await spacer.wait("ip:a", 0.05)
        await spacer.wait("ip:b", 0.05)
        clock.advance(1.0)
        await spacer.wait("ip:a", 0.05)  # long after: at once

    asyncio.run(go())
    assert waits.asked == [0.05, 0.1]


def test_a_wait_past_its_bound_goes_on_at_once_and_memory_is_bounded() -> None:
    clock = ManualClock()
    waits = Waits()
    spacer = Spacer(clock, waits)

    async def go() -> None:
        for _ in range(int(MAX_WAIT_SECONDS / 0.05) + 10):
            await spacer.wait("ip:a", 0.05)
        for n in range(CLIENTS_KEPT + 10):
            await spacer.wait(f"ip:{n}", 0.05)

    asyncio.run(go())
    assert max(waits.asked) <= MAX_WAIT_SECONDS
    assert len(spacer._next) == CLIENTS_KEPT


def test_held_refusals_are_let_go_apart() -> None:
    clock = ManualClock()
    asked: list[float] = []

    async def sleep(seconds: float) -> None:
        asked.append(seconds)

    spreads = iter([0.0, 0.5, 0.999])
    limiter = RateLimiter(
        storage_for("memory://"),
        clock,
        [parse_rule(LimitName.REPLAY_READ, "1/minute")],
        refusal_delay=1.0,
        sleep=sleep,
        spread=lambda: next(spreads),
    )

    async def go() -> None:
        for _ in range(3):
            await limiter.hold()

    asyncio.run(go())
    assert asked == [1.0, 1.25, 1.4995]
