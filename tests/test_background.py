"""app/background.py: a named loop starts once, stops within its timeout, and a crash is
logged under its name, never silently restarted."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.background import Loop, every


def test_a_loop_starts_once_runs_under_its_name_and_stops() -> None:
    started: list[str | None] = []

    async def run() -> None:
        task = asyncio.current_task()
        started.append(task.get_name() if task else None)
        await asyncio.Event().wait()

    async def scenario() -> None:
        loop = Loop("emara-test", run)
        loop.start()
        loop.start()  # a second start while it runs does nothing
        await asyncio.sleep(0)
        assert loop.running and started == ["emara-test"]
        await loop.stop()
        assert not loop.running
        await loop.stop()  # stopping twice is harmless

    asyncio.run(scenario())


def test_a_crashed_loop_is_logged_by_name_and_not_restarted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runs: list[int] = []

    async def run() -> None:
        runs.append(1)
        raise RuntimeError("boom")

    async def scenario() -> None:
        loop = Loop("emara-crashy", run)
        loop.start()
        for _ in range(3):
            await asyncio.sleep(0)
        assert not loop.running and runs == [1]
        await loop.stop()

    with caplog.at_level(logging.ERROR, logger="emara.background"):
        asyncio.run(scenario())
    assert "background loop emara-crashy crashed" in caplog.text
    assert "boom" in caplog.text


def test_a_loop_that_ignores_its_cancel_is_left_after_the_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        gate = asyncio.Event()

        async def stubborn() -> None:
            while not gate.is_set():
                try:
                    await gate.wait()
                except asyncio.CancelledError:
                    continue  # refuses to stop

        loop = Loop("emara-stubborn", stubborn, stop_timeout=0)
        loop.start()
        await asyncio.sleep(0)
        await loop.stop()  # returns although the task goes on
        gate.set()

    with caplog.at_level(logging.ERROR, logger="emara.background"):
        asyncio.run(scenario())
    assert "background loop emara-stubborn did not stop within 0s" in caplog.text


def test_every_logs_a_failed_step_and_runs_the_next(caplog: pytest.LogCaptureFixture) -> None:
    steps: list[int] = []
    log = logging.getLogger("emara.test")

    async def scenario() -> None:
        three = asyncio.Event()

        async def step() -> None:
            steps.append(len(steps))
            if len(steps) == 3:
                three.set()
            if len(steps) == 1:
                raise ValueError("first step fails")

        loop = Loop("emara-every", lambda: every(0, step, log, "a step failed"))
        loop.start()
        await three.wait()
        await loop.stop()

    with caplog.at_level(logging.ERROR, logger="emara.test"):
        asyncio.run(scenario())
    assert steps[:3] == [0, 1, 2]
    assert "a step failed" in caplog.text
