"""The refusals of reports (each a stable code, docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from app.errors import AppError


class CannotReportSelf(AppError):
    status = 422
    code = "cannot_report_self"


class AlreadyReported(AppError):
    """The reporter reported this message (or this name) already: one report each."""

    status = 409
    code = "already_reported"


class TooManyOpenReports(AppError):
    """As many of the reporter's reports wait in the operator's queue as one may have:
    ``limit``. Once the operator closes one, reporting works again."""

    status = 429
    code = "too_many_open_reports"

    def __init__(self, message: str, limit: int, **extra: Any) -> None:
        super().__init__(message, limit=limit, **extra)
