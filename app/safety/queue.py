"""The operator's queue of reports (python -m app.admin reports): list, look at one, resolve or
dismiss it with a note. Read and written in the caller's session; nothing here is shown to
anyone but the operator."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from app.errors import AppError, NotFound
from app.safety import repository as repo
from app.safety.repository import QUEUE_LIMIT, Queued
from app.safety.schemas import NOTE_MAX, ReportStatus, clean_note

__all__ = ["QUEUE_LIMIT", "Queued", "close", "find", "one"]


class AlreadyClosed(AppError):
    status = 409
    code = "report_closed"


def find(
    s: Session,
    status: ReportStatus | None = ReportStatus.OPEN,
    reported_id: str | None = None,
    limit: int = QUEUE_LIMIT,
) -> list[Queued]:
    """Reports in ``status`` (all: None), of one reported profile when given; the open ones
    oldest first (the order to work through them), the others newest first."""
    return repo.queue(s, status, reported_id, limit)


def one(s: Session, report_id: int) -> Queued:
    found = repo.one(s, report_id)
    if found is None:
        raise NotFound(f"no report {report_id}")
    return found


def close(s: Session, report_id: int, status: ReportStatus, note: str, now: datetime) -> Queued:
    """Resolve or dismiss an open report, with the operator's note (kept with it)."""
    if status == ReportStatus.OPEN:
        raise ValueError("a report is closed as resolved or dismissed")
    one(s, report_id)
    words = clean_note(note)
    if words is not None:
        words = words[:NOTE_MAX]
    if not repo.close(s, report_id, status, words, now):
        raise AlreadyClosed(f"report {report_id} is closed already")
    return one(s, report_id)
