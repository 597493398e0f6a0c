"""Presence as other features read it (docs/architecture.md, "Data"): who is at a table's
seats, and when a person's last socket on a table closed."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import SeenAt
from app.presence.repository import seat_list

__all__ = ["left_at", "seat_list"]


def left_at(s: Session, table_id: str, profile_id: str) -> datetime | None:
    """When the person's last socket on the table closed (None: never recorded)."""
    return s.scalar(
        select(SeenAt.last_seen_at).where(
            SeenAt.table_id == table_id, SeenAt.profile_id == profile_id
        )
    )
