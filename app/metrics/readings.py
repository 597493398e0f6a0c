"""What a scrape reads: the tallies and the process's gauges on the event loop (where the
queues and the thread limiter live), the database's counts in a worker thread."""

from __future__ import annotations

from dataclasses import dataclass

from anyio import to_thread
from sqlalchemy import func, select
from sqlalchemy.pool import QueuePool

from app.analysis.schemas import JobStatus
from app.db.models import AnalysisJob, EmailOutbox, GameTable
from app.db.session import Database
from app.mail.service import MailService
from app.mygames.events import MeFeed
from app.parts import Parts
from app.push.sender import PushSender
from app.realtime.limits import SocketRegistry
from app.tables.status import TableStatus


@dataclass(frozen=True)
class Pool:
    size: int
    checked_out: int
    overflow: int


@dataclass(frozen=True)
class DatabaseCounts:
    tables: dict[str, int]  # by status, every status named (0 when none)
    email_outbox_pending: int  # game notifications waiting to be sent, all instances
    analysis_jobs: dict[str, int]  # queued and running, all instances


@dataclass(frozen=True)
class LoopReadings:
    table_sockets: int
    socket_frames_refused: int
    my_games_streams: int
    email_queue: int  # messages this process's sender holds (waiting or being sent)
    push_queue: int  # push messages waiting here (retries included)
    worker_threads_busy: int
    worker_threads_total: int
    pool: Pool | None


def on_loop(parts: Parts) -> LoopReadings:
    """Read on the event loop: each value is one attribute or a small sum."""
    registry = parts.get(SocketRegistry)
    limiter = to_thread.current_default_thread_limiter()
    engine_pool = parts.get(Database).engine.pool
    pool = (
        Pool(engine_pool.size(), engine_pool.checkedout(), max(0, engine_pool.overflow()))
        if isinstance(engine_pool, QueuePool)
        else None
    )
    return LoopReadings(
        table_sockets=registry.total,
        socket_frames_refused=registry.frames_refused,
        my_games_streams=sum(len(s) for s in parts.get(MeFeed).streams.values()),
        email_queue=len(parts.get(MailService).postman.schedule),
        push_queue=parts.get(PushSender).delivery.waiting,
        worker_threads_busy=int(limiter.borrowed_tokens),
        worker_threads_total=int(limiter.total_tokens),
        pool=pool,
    )


def count_rows(db: Database) -> DatabaseCounts:
    """Three grouped counts over indexed columns, in one read (a worker thread)."""
    with db.read() as conn:
        tables = dict.fromkeys((s.value for s in TableStatus), 0)
        for status, n in conn.execute(
            select(GameTable.status, func.count()).group_by(GameTable.status)
        ):
            tables[str(status)] = int(n)
        pending = conn.execute(
            select(func.count()).select_from(EmailOutbox).where(EmailOutbox.status == "pending")
        ).scalar_one()
        jobs = {JobStatus.QUEUED.value: 0, JobStatus.RUNNING.value: 0}
        for job_status, n in conn.execute(
            select(AnalysisJob.status, func.count())
            .where(AnalysisJob.status.in_(list(jobs)))
            .group_by(AnalysisJob.status)
        ):
            jobs[str(job_status)] = int(n)
    return DatabaseCounts(tables, int(pending), jobs)
