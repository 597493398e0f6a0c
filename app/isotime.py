"""A stored moment as the API writes it: ISO 8601 in UTC."""

from __future__ import annotations

from datetime import UTC, datetime


def aware(at: datetime) -> datetime:
    """SQLite hands timestamps back without their zone (they were stored in UTC)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite hands back naive datetimes, stored as UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()
