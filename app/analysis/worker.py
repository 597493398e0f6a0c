"""The analysis worker: takes queued analyses from the shared queue and computes them.

Each instance runs ``jobs`` loops (one by default); a loop claims one job at a time (the claim
is a conditional update, so two instances never run the same game at once), and does the CPU
work in a worker thread, never on the event loop. Every analysed position is stored as soon as
it is computed, in the same transaction that extends the lease: an instance that stops (or dies)
leaves its positions, and whoever takes the job next resumes at the first position missing.
A lease is read from the injected clock; a dead instance's lease runs out and another instance
takes the job over. Stopping gives the job back at once (``release``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import Callable

from anyio import CapacityLimiter, to_thread

from app.analysis import repository as repo
from app.analysis.bot import ADVICE_PLAYOUTS, AnalysisBot
from app.analysis.compute import estimate_position, measure_step
from app.analysis.measure import plan
from app.analysis.schemas import JobStatus
from app.analysis.source import load_record, replay_of
from app.clock import Clock
from app.db.session import Database
from app.records.errors import BadMove, BadRecord

log = logging.getLogger("emara.analysis")

LEASE_SECONDS = 120.0
POLL_SECONDS = 10.0


class AnalysisWorker:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        bot: AnalysisBot,
        *,
        jobs: int = 1,
        lease_seconds: float = LEASE_SECONDS,
        poll_seconds: float = POLL_SECONDS,
        owner: str | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.bot = bot
        self.jobs = jobs
        self.lease_seconds = lease_seconds
        self.poll_seconds = poll_seconds
        self.owner = owner or f"analysis-{secrets.token_hex(6)}"
        self.postgres = db.engine.dialect.name == "postgresql"
        self.stopping = threading.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        # The loops' own threads: a job runs for seconds or minutes, and must not hold one of
        # the few the requests share (``EMARA_WORKER_THREADS``).
        self._threads: CapacityLimiter | None = None

    # ------------------------------------------------------------------ one job
    def claim(self) -> int | None:
        with self.db.session() as s:
            return repo.claim(
                s, self.owner, self.bot.version, self.clock.now(), self.lease_seconds, self.postgres
            )

    def run_once(self, should_stop: Callable[[], bool] | None = None) -> int | None:
        """Claim one job and work on it until it is done, fails, or ``should_stop`` (or
        ``stop``) says to stop: the id of the job worked on, or None when the queue is empty."""
        job_id = self.claim()
        if job_id is not None:
            self.run_job(job_id, should_stop)
        return job_id

    def _lease(self) -> float:
        return self.clock.now() + self.lease_seconds

    def _stop(self, should_stop: Callable[[], bool] | None) -> bool:
        return self.stopping.is_set() or (should_stop is not None and should_stop())

    def run_job(self, job_id: int, should_stop: Callable[[], bool] | None = None) -> None:
        with self.db.session() as s:
            job = repo.job_by_id(s, job_id)
            assert job is not None
            replay_id, total, key = job.replay_id, job.total, job.record_key
            rows = repo.positions(s, job_id)
            expected = {p.position: p.expected for p in rows}
            chosen = {p.position for p in rows if p.measured is not None}
        record = load_record(self.db, replay_id)
        if record is None:
            self._fail(job_id, "the record is gone")
            return
        try:
            done = replay_of(record)
        except (BadMove, BadRecord):
            self._fail(job_id, "the record does not replay")
            return
        if done.positions != total:
            self._fail(job_id, "the record changed")
            return
        try:
            for n in range(total):
                if n in expected:
                    continue
                if self._stop(should_stop):
                    self._give_back(job_id)
                    return
                est = estimate_position(done, n, self.bot, key)
                with self.db.session() as s:
                    if not repo.renew(s, job_id, self.owner, self._lease(), len(expected) + 1):
                        return  # the lease was lost: another instance runs the job now
                    repo.add_position(s, job_id, n, est.seat, est.expected)
                expected[n] = est.expected
            # Swings and luck, measured where the curve points to them, within the budget.
            movers = [seat for seat, _, _ in done.moves]
            steps = plan(
                expected,
                movers,
                done.events,
                len(expected[0]),
                self.bot.samples,
                self.bot.budget,
                ADVICE_PLAYOUTS,
            )
            for step in steps:
                if step.position in chosen:
                    continue
                if self._stop(should_stop):
                    self._give_back(job_id)
                    return
                measured, preferred = measure_step(done, step, self.bot, key)
                with self.db.session() as s:
                    if not repo.renew(s, job_id, self.owner, self._lease()):
                        return
                    repo.set_measured(s, job_id, step.position, measured, preferred)
                chosen.add(step.position)
        except Exception:
            log.exception("analysis of job %s failed", job_id)
            self._fail(job_id, "the analysis failed")
            return
        with self.db.session() as s:
            repo.finish(s, job_id, self.owner, JobStatus.DONE, self.clock.utcnow())

    def _fail(self, job_id: int, error: str) -> None:
        with self.db.session() as s:
            repo.finish(s, job_id, self.owner, JobStatus.FAILED, self.clock.utcnow(), error)

    def _give_back(self, job_id: int) -> None:
        with self.db.session() as s:
            repo.release(s, job_id, self.owner)

    # ------------------------------------------------------------------ background part
    def wake(self) -> None:
        """A job was queued: a waiting loop looks at once (from any thread)."""
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def start(self) -> None:
        if self._tasks or self.jobs < 1:
            return
        self.stopping.clear()
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._threads = CapacityLimiter(self.jobs)
        for i in range(self.jobs):
            self._tasks.append(self._loop.create_task(self._run(), name=f"emara-analysis-{i}"))

    async def stop(self) -> None:
        """Stop after the position each loop is computing; its job goes back to the queue."""
        self.stopping.set()
        if self._wake is not None:
            self._wake.set()
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        assert self._wake is not None
        while not self.stopping.is_set():
            try:
                job_id = await to_thread.run_sync(self.run_once, limiter=self._threads)
            except Exception:
                log.exception("analysis loop failed; trying again shortly")
                job_id = None
            if job_id is not None or self.stopping.is_set():
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
