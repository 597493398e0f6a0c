"""All the SQL of reports: file one (once per reporter and subject, counted against the
reporter's open reports), the operator's queue, closing, and the sweep of old closed ones."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session, aliased

from app.db.models import Profile, Report
from app.safety.schemas import ReportStatus

QUEUE_LIMIT = 50
# Closed reports one sweep deletes at most (the next sweep takes the rest).
SWEEP_BATCH = 1000


def lock_reporter(s: Session, profile_id: str) -> None:
    """Serialise one reporter's reports until the end of the transaction (a write to its
    profile's row: the row lock on Postgres, the write lock on SQLite), so the count of open
    reports that follows sees every report of theirs that committed before."""
    s.execute(
        update(Profile).where(Profile.id == profile_id).values(name=Profile.name),
        execution_options={"synchronize_session": False},
    )


def open_count(s: Session, reporter_id: str) -> int:
    n = s.scalar(
        select(func.count())
        .select_from(Report)
        .where(Report.reporter_id == reporter_id, Report.status == ReportStatus.OPEN)
    )
    return int(n or 0)


def filed(s: Session, reporter_id: str, subject: str) -> bool:
    found = s.scalar(
        select(Report.id).where(Report.reporter_id == reporter_id, Report.subject == subject)
    )
    return found is not None


def add(s: Session, report: Report) -> Report:
    s.add(report)
    s.flush()
    return report


@dataclass(frozen=True)
class Queued:
    """A report as the operator sees it: who reported (their name now), who was reported (their
    name as reported, and now), what, why."""

    id: int
    status: ReportStatus
    kind: str
    reason: str
    created_at: datetime
    table_id: str | None
    reporter_id: str | None
    reporter_name: str | None
    reported_id: str
    reported_name: str
    reported_name_now: str | None
    message_id: int | None
    message_text: str | None
    message_at: datetime | None
    note: str | None
    closed_at: datetime | None
    resolution: str | None


def _queued(r: Report, reporter_name: str | None, name_now: str | None) -> Queued:
    return Queued(
        r.id,
        ReportStatus(r.status),
        r.kind,
        r.reason,
        r.created_at,
        r.table_id,
        r.reporter_id,
        reporter_name,
        r.reported_id,
        r.reported_name,
        name_now,
        r.message_id,
        r.message_text,
        r.message_at,
        r.note,
        r.closed_at,
        r.resolution,
    )


def queue(
    s: Session,
    status: ReportStatus | None = ReportStatus.OPEN,
    reported_id: str | None = None,
    limit: int = QUEUE_LIMIT,
) -> list[Queued]:
    """The reports in ``status`` (every status: None), oldest first for the open ones (the
    queue's order), newest first otherwise."""
    reporter, reported = aliased(Profile), aliased(Profile)
    q = (
        select(Report, reporter.name, reported.name)
        .outerjoin(reporter, reporter.id == Report.reporter_id)
        .outerjoin(reported, reported.id == Report.reported_id)
    )
    if status is not None:
        q = q.where(Report.status == status)
    if reported_id is not None:
        q = q.where(Report.reported_id == reported_id)
    if status == ReportStatus.OPEN:
        q = q.order_by(Report.created_at, Report.id)
    else:
        q = q.order_by(Report.created_at.desc(), Report.id.desc())
    return [_queued(r, a, b) for r, a, b in s.execute(q.limit(limit)).all()]


def one(s: Session, report_id: int) -> Queued | None:
    reporter, reported = aliased(Profile), aliased(Profile)
    row = s.execute(
        select(Report, reporter.name, reported.name)
        .outerjoin(reporter, reporter.id == Report.reporter_id)
        .outerjoin(reported, reported.id == Report.reported_id)
        .where(Report.id == report_id)
    ).first()
    return None if row is None else _queued(row[0], row[1], row[2])


def close(
    s: Session, report_id: int, status: ReportStatus, resolution: str | None, at: datetime
) -> bool:
    """An open report resolved or dismissed; False when it was not open (or does not exist)."""
    n = s.execute(
        update(Report)
        .where(Report.id == report_id, Report.status == ReportStatus.OPEN)
        .values(status=status, resolution=resolution, closed_at=at),
        execution_options={"synchronize_session": False},
    )
    return int(n.rowcount) == 1  # type: ignore[attr-defined]


def sweep(s: Session, closed_before: datetime, batch: int = SWEEP_BATCH) -> int:
    """Delete reports closed before ``closed_before`` (at most ``batch``); how many."""
    ids = list(
        s.scalars(
            select(Report.id)
            .where(Report.status != ReportStatus.OPEN, Report.closed_at < closed_before)
            .limit(batch)
        )
    )
    if ids:
        s.execute(delete(Report).where(Report.id.in_(ids)))
    return len(ids)
