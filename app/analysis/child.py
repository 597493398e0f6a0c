"""The strong bot in a process of its own, for the server's analysis worker.

An analysis is minutes of pure-Python playouts. In a thread of the server's process it holds the
interpreter lock from the requests and sockets that share it (measured with
``python -m bench.abuse --work``: ``/api/health``'s p99 about three times its idle value while
one analysis ran). ``ChildProcessBot`` answers the same ``AnalysisBot`` Protocol as
``StrongBot``, with the same numbers for the same inputs, but each call runs in a child
process (``spawn``: nothing of the server's threads, sockets or database connections is copied
into it). The worker thread that calls it waits on the child without holding the lock.

The child starts at the first call and ends with ``close`` (the worker's ``stop``); a child that
died is replaced at the next call, and the call that found it dead raises, which fails that job
as any other error in the bot would.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app import rules
from app.analysis.bot import ADVICE_PLAYOUTS, MEASURE_BUDGET, MEASURE_SAMPLES, StrongBot

_bot: StrongBot | None = None


def _start(playouts: int, advice_playouts: int, samples: int, budget: int) -> None:
    global _bot
    _bot = StrongBot(playouts, advice_playouts, samples=samples, budget=budget)


def _expected(
    view: rules.View, legal: list[rules.EncodedMove], seat: int, seed: int
) -> list[float]:
    assert _bot is not None
    return _bot.expected(view, legal, seat, seed)


def _preferred(view: rules.View, legal: list[rules.EncodedMove], seed: int) -> rules.EncodedMove:
    assert _bot is not None
    return _bot.preferred(view, legal, seed)


def _outcomes(
    view: rules.View, seat: int, mover: int, moves: list[rules.EncodedMove | None], seed: int
) -> list[list[list[float]]]:
    assert _bot is not None
    return _bot.outcomes(view, seat, mover, moves, seed)


class ChildProcessBot:
    """``StrongBot``'s answers, computed in child processes (one for each analysis the
    instance runs at a time)."""

    def __init__(
        self,
        playouts: int,
        advice_playouts: int = ADVICE_PLAYOUTS,
        *,
        processes: int = 1,
        samples: int = MEASURE_SAMPLES,
        budget: int = MEASURE_BUDGET,
    ) -> None:
        self.playouts = playouts
        self.processes = max(1, processes)
        self.advice_playouts = advice_playouts
        self.samples = samples
        self.budget = budget
        self.version = StrongBot(playouts, advice_playouts, samples=samples, budget=budget).version
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start,
                    initargs=(self.playouts, self.advice_playouts, self.samples, self.budget),
                )
            return self._pool

    def _call(self, fn: Any, *args: Any) -> Any:
        pool = self._executor()
        try:
            return pool.submit(fn, *args).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise

    def expected(
        self, view: rules.View, legal: list[rules.EncodedMove], seat: int, rng_seed: int
    ) -> list[float]:
        return list(self._call(_expected, view, legal, seat, rng_seed))

    def preferred(
        self, view: rules.View, legal: list[rules.EncodedMove], rng_seed: int
    ) -> rules.EncodedMove:
        move: rules.EncodedMove = self._call(_preferred, view, legal, rng_seed)
        return move

    def outcomes(
        self,
        view: rules.View,
        seat: int,
        mover: int,
        moves: list[rules.EncodedMove | None],
        rng_seed: int,
    ) -> list[list[list[float]]]:
        return [
            [list(row) for row in col]
            for col in self._call(_outcomes, view, seat, mover, moves, rng_seed)
        ]

    @property
    def running(self) -> bool:
        """Whether a child process is up (started by a call, not yet closed)."""
        return self._pool is not None

    def close(self) -> None:
        """End the child (a call under way finishes first); the next call starts a new one."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
