"""A running analysis holds threads of its own, never one of the few the requests share
(``EMARA_WORKER_THREADS``): a long job cannot leave the requests a thread short."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from anyio import to_thread

from app.clock import ManualClock
from tests.analysis.conftest import worker


def test_a_running_analysis_takes_none_of_the_shared_worker_threads(
    app: Any, clock: ManualClock
) -> None:
    started = threading.Event()
    release = threading.Event()

    def job(should_stop: Any = None) -> int | None:
        started.set()
        release.wait()
        return None

    async def run() -> tuple[float, float]:
        shared = to_thread.current_default_thread_limiter()
        shared.total_tokens = 2  # as the app sets it (app/main.py)
        w = worker(app, clock, jobs=1, poll_seconds=3600)
        w.run_once = job  # type: ignore[method-assign]
        await w.start()
        await to_thread.run_sync(started.wait)  # (one shared thread, given back here)
        during = shared.borrowed_tokens
        release.set()
        await w.stop()
        return during, shared.borrowed_tokens

    during, after = asyncio.run(run())
    assert started.is_set()
    assert (during, after) == (0, 0)
