"""The SQL of "since you looked" beyond the seat's mark (the mark itself is the tables':
app/tables/published_log.py): up to when a person has read the table chat."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from app.presence import published as presence
from app.tables import published_log


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def chat_seen_until(s: Session, table_id: str, profile_id: str, mark: int) -> datetime | None:
    """The moment up to which the person is taken to have read the table chat: the later of the
    time the version they last saw was played and the time their last socket on the table
    closed (messages before it reached their open page). None: they saw nothing yet."""
    played = published_log.played_at(s, table_id, mark) if mark > 0 else None
    left = presence.left_at(s, table_id, profile_id)
    moments = [m for m in (_aware(played), _aware(left)) if m is not None]
    return max(moments) if moments else None
