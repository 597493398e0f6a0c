"""The SQL of who asked for an analysis: one request per job and requester, the count of a
profile's or an address's requests still waiting (queued or running), and the lock that makes
count-then-add one step across instances.

A requester is the profile that asked, or, for someone not signed in, the client's address key
(``app.ratelimit.deps.client_keys``): the unit the queue serves in turn. Every request also
keeps the address it came from, so an address's cap holds over all the profiles behind it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.analysis.schemas import JobStatus
from app.db.models import AnalysisJob, AnalysisRequest

WAITING = (JobStatus.QUEUED, JobStatus.RUNNING)


@dataclass(frozen=True)
class Requester:
    """Who asks: their profile (None: not signed in) and their client address key."""

    profile_id: str | None
    address: str

    @property
    def key(self) -> str:
        return f"profile:{self.profile_id}" if self.profile_id is not None else self.address


def lock(s: Session, who: Requester, postgres: bool) -> None:
    """Hold, to the end of the transaction, the locks of the requester's profile and address:
    two requests of one person on two instances count and add one after the other. (SQLite
    writes one transaction at a time already.) Taken in one order, so two never deadlock."""
    if not postgres:
        return
    names = sorted({who.key, who.address})
    for name in names:
        digest = hashlib.sha256(f"analysis-request|{name}".encode()).digest()
        s.execute(
            text("SELECT pg_advisory_xact_lock(:k)"),
            {"k": int.from_bytes(digest[:8], "big", signed=True)},
        )


def request_of(s: Session, job_id: int, who: Requester) -> AnalysisRequest | None:
    return s.scalar(
        select(AnalysisRequest).where(
            AnalysisRequest.job_id == job_id, AnalysisRequest.requester == who.key
        )
    )


def waiting(s: Session, column: Any, value: str) -> int:
    """Requests whose job is queued or running, of one profile or one address."""
    count = s.scalar(
        select(func.count())
        .select_from(AnalysisRequest)
        .join(AnalysisJob, AnalysisJob.id == AnalysisRequest.job_id)
        .where(column == value, AnalysisJob.status.in_(WAITING))
    )
    return int(count or 0)


def waiting_of_profile(s: Session, profile_id: str) -> int:
    return waiting(s, AnalysisRequest.profile_id, profile_id)


def waiting_of_address(s: Session, address: str) -> int:
    return waiting(s, AnalysisRequest.address, address)


def add_request(s: Session, job_id: int, who: Requester, at: datetime) -> bool:
    """The requester's request for the job (it may exist: asked again). True when added."""
    if request_of(s, job_id, who) is not None:
        return False
    row = AnalysisRequest(
        job_id=job_id,
        requester=who.key,
        profile_id=who.profile_id,
        address=who.address,
        requested_at=at,
    )
    try:
        with s.begin_nested():
            s.add(row)
            s.flush()
    except IntegrityError:
        return False
    return True


def served(s: Session, job_id: int, now: float) -> None:
    """The job was taken up: each of its requesters was served ``now``."""
    s.execute(
        update(AnalysisRequest)
        .where(AnalysisRequest.job_id == job_id)
        .values(served_at=now)
        .execution_options(synchronize_session=False)
    )
