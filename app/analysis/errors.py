"""The typed errors of the analysis (app/errors.py renders them)."""

from __future__ import annotations

from app.errors import AppError


class AnalysisTooLong(AppError):
    """The game has more positions than an analysis covers (``limit``)."""

    status = 422
    code = "analysis_too_long"
