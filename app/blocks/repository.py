"""All the SQL of blocks: add one (once), lift one, the list a person keeps."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.db.models import PersonBlock, Profile

# The list of people one blocked shows this many (latest first).
LIST_LIMIT = 200


def person(s: Session, profile_id: str) -> tuple[str, str] | None:
    """(id, name) of a profile that exists and was not deleted."""
    row = s.execute(
        select(Profile.id, Profile.name).where(
            Profile.id == profile_id, Profile.deleted_at.is_(None)
        )
    ).first()
    return None if row is None else (str(row[0]), str(row[1]))


def since(s: Session, profile_id: str, other_id: str) -> datetime | None:
    """When ``profile_id`` blocked ``other_id`` (None: it did not)."""
    at: datetime | None = s.scalar(
        select(PersonBlock.created_at).where(
            PersonBlock.profile_id == profile_id, PersonBlock.blocked_id == other_id
        )
    )
    return at


def add(s: Session, profile_id: str, other_id: str, at: datetime) -> None:
    """The block (in the caller's transaction; the same block committed meanwhile by another
    request breaks the primary key at the flush: ``IntegrityError``)."""
    s.add(PersonBlock(profile_id=profile_id, blocked_id=other_id, created_at=at))
    s.flush()


def remove(s: Session, profile_id: str, other_id: str) -> None:
    s.execute(
        delete(PersonBlock).where(
            PersonBlock.profile_id == profile_id, PersonBlock.blocked_id == other_id
        )
    )


class BlockRow(NamedTuple):
    """Someone ``profile_id`` blocked, and since when."""

    id: str
    name: str
    since: datetime | None


def of(s: Session, profile_id: str, limit: int = LIST_LIMIT) -> list[BlockRow]:
    """The people ``profile_id`` blocked, latest first."""
    rows = s.execute(
        select(Profile.id, Profile.name, PersonBlock.created_at)
        .join(PersonBlock, PersonBlock.blocked_id == Profile.id)
        .where(PersonBlock.profile_id == profile_id)
        .order_by(PersonBlock.created_at.desc(), Profile.id)
        .limit(limit)
    ).all()
    return [BlockRow(i, n, at) for i, n, at in rows]
