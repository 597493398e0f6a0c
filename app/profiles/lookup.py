"""An operator looks profiles up: by id, by name (a part of it, any case) or by e-mail address
(python -m app.admin profiles). Read-only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from app.db.models import EmailAddress, Profile
from app.isotime import aware

LIMIT = 50


@dataclass(frozen=True)
class ProfileSummary:
    id: str
    name: str
    created_at: datetime
    email: str | None
    suspended_at: datetime | None
    suspended_reason: str | None
    deleted_at: datetime | None


def _query() -> Select[Profile, str]:
    return select(Profile, EmailAddress.address).outerjoin(
        EmailAddress, EmailAddress.profile_id == Profile.id
    )


def _summary(p: Profile, address: str | None) -> ProfileSummary:
    return ProfileSummary(
        p.id,
        p.name,
        aware(p.created_at),
        address,
        None if p.suspended_at is None else aware(p.suspended_at),
        p.suspended_reason,
        None if p.deleted_at is None else aware(p.deleted_at),
    )


def find(
    s: Session,
    *,
    profile_id: str | None = None,
    name: str | None = None,
    email: str | None = None,
    suspended: bool = False,
    limit: int = LIMIT,
) -> list[ProfileSummary]:
    """The profiles matching every filter given, newest first (at most ``limit``)."""
    q = _query()
    if profile_id:
        q = q.where(Profile.id == profile_id)
    if name:
        pattern = "%" + name.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        q = q.where(func.lower(Profile.name).like(pattern + "%", escape="\\"))
    if email:
        q = q.where(func.lower(EmailAddress.address) == email.strip().lower())
    if suspended:
        q = q.where(Profile.suspended_at.is_not(None))
    rows = s.execute(q.order_by(Profile.created_at.desc(), Profile.id).limit(limit)).all()
    return [_summary(p, address) for p, address in rows]
