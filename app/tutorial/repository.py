"""The tutorial's SQL: the profile's guided-game status (column ``profile.guide``)."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.db.models import Profile
from app.tutorial.status import GuideStatus


def status(s: Session, profile_id: str) -> GuideStatus | None:
    raw = s.scalar(select(Profile.guide).where(Profile.id == profile_id))
    return GuideStatus(raw) if raw else None


def set_status(s: Session, profile_id: str, value: GuideStatus) -> None:
    """Record it; "finished" is never turned back into "dismissed"."""
    q = update(Profile).where(Profile.id == profile_id)
    if value is GuideStatus.DISMISSED:
        q = q.where((Profile.guide.is_(None)) | (Profile.guide != GuideStatus.FINISHED.value))
    s.execute(q.values(guide=value.value))
