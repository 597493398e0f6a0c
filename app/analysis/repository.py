"""The SQL of the analysis: the job queue the instances share, and the analysed positions (who
asked for each job: requests.py).

A claim is a conditional update (``WHERE status = 'queued' OR the lease has run out``): of two
instances claiming one job, exactly one updates the row. On Postgres the candidate is first read
``FOR UPDATE SKIP LOCKED``, so a second claimer passes on to the next job instead of waiting.
Every write of a running job is conditional on its lease owner: an instance that lost its lease
(it stalled, and another took over) stores nothing more. Which job is claimed next is the
database's answer too (the requesters in turn, ``claim``), so it holds across instances.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from app.analysis import requests
from app.analysis.schemas import JobStatus
from app.analysis.shapes import Measured, Preferred
from app.db.models import AnalysisJob, AnalysisPosition, AnalysisRequest


def job(s: Session, record_key: str, bot_version: str) -> AnalysisJob | None:
    return s.scalar(
        select(AnalysisJob).where(
            AnalysisJob.record_key == record_key, AnalysisJob.bot_version == bot_version
        )
    )


def job_by_id(s: Session, job_id: int) -> AnalysisJob | None:
    return s.get(AnalysisJob, job_id)


def add_job(
    s: Session, record_key: str, bot_version: str, replay_id: str, total: int, at: datetime
) -> tuple[AnalysisJob, bool]:
    """The job of (record, bot version): a new queued one, or the one that exists (also when
    another request added it a moment ago). True when this call added it."""
    found = job(s, record_key, bot_version)
    if found is not None:
        return found, False
    row = AnalysisJob(
        record_key=record_key,
        bot_version=bot_version,
        replay_id=replay_id,
        status=JobStatus.QUEUED,
        total=total,
        done=0,
        requested_at=at,
    )
    try:
        with s.begin_nested():
            s.add(row)
            s.flush()
    except IntegrityError:
        found = job(s, record_key, bot_version)
        assert found is not None
        return found, False
    return row, True


def _claimable(now: float) -> Any:
    return or_(
        AnalysisJob.status == JobStatus.QUEUED,
        and_(AnalysisJob.status == JobStatus.RUNNING, AnalysisJob.lease_until < now),
    )


def _last_served() -> Any:
    """The last time the requester of the outer request was served (-1: never)."""
    earlier = aliased(AnalysisRequest)
    return (
        select(func.coalesce(func.max(earlier.served_at), -1.0))
        .where(earlier.requester == AnalysisRequest.requester)
        .correlate(AnalysisRequest)
        .scalar_subquery()
    )


def claim(
    s: Session, owner: str, bot_version: str, now: float, lease_seconds: float, postgres: bool
) -> int | None:
    """Take a job of ``bot_version`` nobody runs (or whose runner's lease ran out): its id, or
    None. The requesters are served in turn: the next job is the oldest request's of the
    requester served least recently (never served: first), so one requester's long queue
    delays another's first analysis by one job at most, whichever instance claims. Every
    requester of the job taken is marked served. An instance runs only the jobs of its own bot
    version (another instance may be configured with other playouts)."""
    query = (
        select(AnalysisJob.id)
        .outerjoin(AnalysisRequest, AnalysisRequest.job_id == AnalysisJob.id)
        .where(AnalysisJob.bot_version == bot_version, _claimable(now))
        .order_by(_last_served(), func.coalesce(AnalysisRequest.id, 0), AnalysisJob.id)
        .limit(5)
    )
    if postgres:
        query = query.with_for_update(of=AnalysisJob, skip_locked=True)
    for job_id in dict.fromkeys(s.scalars(query).all()):
        done = s.execute(
            update(AnalysisJob)
            .where(AnalysisJob.id == job_id, _claimable(now))
            .values(status=JobStatus.RUNNING, lease_owner=owner, lease_until=now + lease_seconds)
            .execution_options(synchronize_session=False)
        )
        if int(done.rowcount) == 1:  # type: ignore[attr-defined]
            requests.served(s, int(job_id), now)
            return int(job_id)
    return None


def _held(job_id: int, owner: str) -> Any:
    return and_(
        AnalysisJob.id == job_id,
        AnalysisJob.lease_owner == owner,
        AnalysisJob.status == JobStatus.RUNNING,
    )


def renew(s: Session, job_id: int, owner: str, lease_until: float, done: int | None = None) -> bool:
    """Extend the lease (and set the count of positions done); False: the lease is lost."""
    values: dict[str, float] = {"lease_until": lease_until}
    if done is not None:
        values["done"] = done
    result = s.execute(
        update(AnalysisJob)
        .where(_held(job_id, owner))
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def add_position(
    s: Session, job_id: int, position: int, seat: int | None, expected: list[float]
) -> None:
    s.add(AnalysisPosition(job_id=job_id, position=position, seat=seat, expected=expected))
    s.flush()


def set_measured(
    s: Session,
    job_id: int,
    position: int,
    measured: Measured,
    preferred: Preferred | None,
) -> None:
    s.execute(
        update(AnalysisPosition)
        .where(AnalysisPosition.job_id == job_id, AnalysisPosition.position == position)
        .values(measured=measured, preferred=preferred)
        .execution_options(synchronize_session=False)
    )


def positions(s: Session, job_id: int) -> list[AnalysisPosition]:
    return list(
        s.scalars(
            select(AnalysisPosition)
            .where(AnalysisPosition.job_id == job_id)
            .order_by(AnalysisPosition.position)
        )
    )


def finish(
    s: Session, job_id: int, owner: str, status: JobStatus, at: datetime, error: str | None = None
) -> bool:
    result = s.execute(
        update(AnalysisJob)
        .where(_held(job_id, owner))
        .values(status=status, lease_owner=None, lease_until=None, finished_at=at, error=error)
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def release(s: Session, job_id: int, owner: str) -> bool:
    """Give a job back to the queue (this instance stops): another resumes it at once."""
    result = s.execute(
        update(AnalysisJob)
        .where(_held(job_id, owner))
        .values(status=JobStatus.QUEUED, lease_owner=None, lease_until=None)
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]
