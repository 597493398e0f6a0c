"""The profile rows: every SQL statement of the profiles feature, on a caller's session."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, bindparam, select, update
from sqlalchemy.orm import Session

from app.db.models import DeviceCode, DeviceSession, Profile
from app.isotime import aware


@dataclass(frozen=True)
class ProfileRow:
    id: str
    name: str
    generation: int
    guide: str | None = None  # the guided first game: "finished" | "dismissed" | None


def _row(p: Profile) -> ProfileRow:
    return ProfileRow(p.id, p.name, p.generation, p.guide)


def insert(s: Session, name: str, recovery_hash: str) -> ProfileRow:
    p = Profile(id=secrets.token_urlsafe(9), name=name, recovery_hash=recovery_hash, generation=0)
    s.add(p)
    s.flush()
    return _row(p)


def get(s: Session, profile_id: str) -> ProfileRow | None:
    found = s.execute(
        select(Profile.id, Profile.name, Profile.generation, Profile.guide).where(
            Profile.id == profile_id
        )
    ).first()
    return (
        None if found is None else ProfileRow(found.id, found.name, found.generation, found.guide)
    )


def by_recovery_hash(s: Session, recovery_hash: str) -> ProfileRow | None:
    found = s.scalar(select(Profile).where(Profile.recovery_hash == recovery_hash))
    return None if found is None else _row(found)


def replace_recovery(s: Session, profile_id: str, old_hash: str, new_hash: str) -> bool:
    """Swap the recovery code, only if it is still ``old_hash``: of two uses of one code
    racing, exactly one changes the row. (The other devices stay signed in: they are told.)"""
    result = s.execute(
        update(Profile)
        .where(Profile.id == profile_id, Profile.recovery_hash == old_hash)
        .values(recovery_hash=new_hash)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def bump_generation(s: Session, profile_id: str) -> bool:
    result = s.execute(
        update(Profile).where(Profile.id == profile_id).values(generation=Profile.generation + 1)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


# ------------------------------------------------------------------ device sessions
def new_session(
    s: Session,
    profile_id: str,
    device: str,
    how: str,
    now: datetime,
    proved_at: datetime | None = None,
) -> str:
    """A device session begun at ``now``; ``proved_at`` its proof (a sign-in: ``now``)."""
    sid = secrets.token_urlsafe(12)
    s.add(
        DeviceSession(
            id=sid,
            profile_id=profile_id,
            device=device[:80],
            how=how,
            created_at=now,
            last_used_at=now,
            proved_at=proved_at,
        )
    )
    s.flush()
    return sid


def session_row(s: Session, session_id: str) -> DeviceSession | None:
    return s.get(DeviceSession, session_id)


@dataclass(frozen=True)
class SignedIn:
    """A profile and, when the token names one of its device sessions, that session."""

    profile: ProfileRow
    session_id: str | None  # None: no such session of this profile
    revoked_at: datetime | None
    last_used_at: datetime | None
    proved_at: datetime | None = None


PROFILE: Table = Profile.__table__  # type: ignore[assignment]
DEVICE_SESSION: Table = DeviceSession.__table__  # type: ignore[assignment]
# A request's check of its token, built once: the profile and the device session it names.
SIGNED_IN = (
    select(
        PROFILE.c.id,
        PROFILE.c.name,
        PROFILE.c.generation,
        PROFILE.c.guide,
        DEVICE_SESSION.c.id.label("session_id"),
        DEVICE_SESSION.c.revoked_at,
        DEVICE_SESSION.c.last_used_at,
        DEVICE_SESSION.c.proved_at,
    )
    .outerjoin(
        DEVICE_SESSION,
        (DEVICE_SESSION.c.id == bindparam("p_session"))
        & (DEVICE_SESSION.c.profile_id == PROFILE.c.id),
    )
    .where(PROFILE.c.id == bindparam("p_profile"))
)


def signed_in(conn: Connection, profile_id: str, session_id: str | None) -> SignedIn | None:
    """The profile and its device session ``session_id``, in one statement (a request's check
    of its token: ``ProfileService.session``). None when there is no such profile."""
    found = conn.execute(SIGNED_IN, {"p_profile": profile_id, "p_session": session_id}).first()
    if found is None:
        return None
    row = ProfileRow(found.id, found.name, found.generation, found.guide)
    return SignedIn(row, found.session_id, found.revoked_at, found.last_used_at, found.proved_at)


def touch(s: Session, session_id: str, now: datetime) -> None:
    s.execute(update(DeviceSession).where(DeviceSession.id == session_id).values(last_used_at=now))


def _set_on_live_session(s: Session, profile_id: str, session_id: str, **values: Any) -> bool:
    """``values`` set on the profile's session ``session_id`` if it is not signed out; whether
    it was."""
    result = s.execute(
        update(DeviceSession)
        .where(
            DeviceSession.id == session_id,
            DeviceSession.profile_id == profile_id,
            DeviceSession.revoked_at.is_(None),
        )
        .values(**values)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def prove(s: Session, profile_id: str, session_id: str, now: datetime) -> bool:
    """This device proved again that it is its person (a re-entered recovery code, a passkey)."""
    return _set_on_live_session(s, profile_id, session_id, proved_at=now)


def recovery_hash_of(s: Session, profile_id: str) -> str | None:
    return s.scalar(select(Profile.recovery_hash).where(Profile.id == profile_id))


def sessions_of(s: Session, profile_id: str) -> list[DeviceSession]:
    """The profile's devices still signed in, most recently used first."""
    return list(
        s.scalars(
            select(DeviceSession)
            .where(DeviceSession.profile_id == profile_id, DeviceSession.revoked_at.is_(None))
            .order_by(DeviceSession.last_used_at.desc(), DeviceSession.id)
        )
    )


def revoke(s: Session, profile_id: str, session_id: str, now: datetime) -> bool:
    return _set_on_live_session(s, profile_id, session_id, revoked_at=now)


def rename(s: Session, profile_id: str, session_id: str, name: str | None) -> bool:
    return _set_on_live_session(s, profile_id, session_id, name=name)


def revoke_all(s: Session, profile_id: str, now: datetime) -> None:
    s.execute(
        update(DeviceSession)
        .where(DeviceSession.profile_id == profile_id, DeviceSession.revoked_at.is_(None))
        .values(revoked_at=now)
    )


def acknowledge(s: Session, session_id: str, now: datetime) -> None:
    s.execute(
        update(DeviceSession).where(DeviceSession.id == session_id).values(acknowledged_at=now)
    )


def recovery_after(s: Session, me: DeviceSession) -> DeviceSession | None:
    """The latest recovery of the profile on another device since this device began (or last
    said it was its own doing), if any."""
    after = (
        DeviceSession.created_at >= me.created_at
        if me.acknowledged_at is None
        else DeviceSession.created_at > me.acknowledged_at
    )
    found: DeviceSession | None = s.scalars(
        select(DeviceSession)
        .where(
            DeviceSession.profile_id == me.profile_id,
            DeviceSession.how == "recovery",
            DeviceSession.id != me.id,
            after,
        )
        .order_by(DeviceSession.created_at.desc())
        .limit(1)
    ).first()
    return found


def add_code(s: Session, profile_id: str, code_hash: str, expires_at: datetime) -> None:
    s.add(DeviceCode(code_hash=code_hash, profile_id=profile_id, expires_at=expires_at))
    s.flush()


def spend_code(s: Session, code_hash: str, now: datetime) -> str | None:
    """The profile a device code adds a device to, spending it (once, before it expires)."""
    row = s.get(DeviceCode, code_hash)
    if row is None or row.used_at is not None or aware(row.expires_at) <= now:
        return None
    result = s.execute(
        update(DeviceCode)
        .where(DeviceCode.code_hash == code_hash, DeviceCode.used_at.is_(None))
        .values(used_at=now)
    )
    return row.profile_id if getattr(result, "rowcount", 0) == 1 else None
