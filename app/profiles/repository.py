"""The profile rows: every SQL statement of the profiles feature, on a caller's session."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.db.models import Profile


@dataclass(frozen=True)
class ProfileRow:
    id: str
    name: str
    generation: int


def _row(p: Profile) -> ProfileRow:
    return ProfileRow(p.id, p.name, p.generation)


def insert(s: Session, name: str, recovery_hash: str) -> ProfileRow:
    p = Profile(id=secrets.token_urlsafe(9), name=name, recovery_hash=recovery_hash, generation=0)
    s.add(p)
    s.flush()
    return _row(p)


def get(s: Session, profile_id: str) -> ProfileRow | None:
    found = s.execute(
        select(Profile.id, Profile.name, Profile.generation).where(Profile.id == profile_id)
    ).first()
    return None if found is None else ProfileRow(found.id, found.name, found.generation)


def by_recovery_hash(s: Session, recovery_hash: str) -> ProfileRow | None:
    found = s.scalar(select(Profile).where(Profile.recovery_hash == recovery_hash))
    return None if found is None else _row(found)


def replace_recovery(s: Session, profile_id: str, old_hash: str, new_hash: str) -> bool:
    """Swap the recovery code and bump the generation, only if the code is still ``old_hash``:
    of two uses of one code racing, exactly one changes the row."""
    result = s.execute(
        update(Profile)
        .where(Profile.id == profile_id, Profile.recovery_hash == old_hash)
        .values(recovery_hash=new_hash, generation=Profile.generation + 1)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def bump_generation(s: Session, profile_id: str) -> bool:
    result = s.execute(
        update(Profile).where(Profile.id == profile_id).values(generation=Profile.generation + 1)
    )
    return bool(getattr(result, "rowcount", 0) == 1)
