"""The typed errors of the analysis (app/errors.py renders them)."""

from __future__ import annotations

from app.errors import AppError


class AnalysisTooLong(AppError):
    """The game has more positions than an analysis covers (``limit``)."""

    status = 422
    code = "analysis_too_long"


class AnalysisQueueFull(AppError):
    """The requester has as many analyses waiting (queued or running) as one may: per profile
    or per client address (``scope``), at most ``limit``. Nothing is queued; asking again once
    one of them is done succeeds."""

    status = 429
    code = "analysis_queue_full"
