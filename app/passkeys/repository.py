"""All the SQL of passkeys: the profile's user handle, its credentials, and the challenges."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from app.db.models import Passkey, PasskeyChallenge, PasskeyUser, Profile


@dataclass(frozen=True)
class PasskeyRow:
    id: str
    profile_id: str
    credential_id: str
    public_key: bytes
    sign_count: int
    transports: list[str]
    name: str
    created_at: datetime
    last_used_at: datetime | None


def _row(p: Passkey) -> PasskeyRow:
    return PasskeyRow(
        p.id,
        p.profile_id,
        p.credential_id,
        bytes(p.public_key),
        int(p.sign_count),
        list(p.transports or []),
        p.name,
        p.created_at,
        p.last_used_at,
    )


# ------------------------------------------------------------------------------ profiles
def profile_name(s: Session, profile_id: str) -> str | None:
    return s.scalar(select(Profile.name).where(Profile.id == profile_id))


def handle_of(s: Session, profile_id: str) -> str | None:
    return s.scalar(select(PasskeyUser.handle).where(PasskeyUser.profile_id == profile_id))


def ensure_handle(s: Session, profile_id: str, fresh: str) -> str:
    """The profile's user handle, made ``fresh`` if it has none yet."""
    found = handle_of(s, profile_id)
    if found is not None:
        return found
    s.add(PasskeyUser(profile_id=profile_id, handle=fresh))
    s.flush()
    return fresh


# ------------------------------------------------------------------------------ passkeys
def of_profile(s: Session, profile_id: str) -> list[PasskeyRow]:
    rows = s.scalars(
        select(Passkey)
        .where(Passkey.profile_id == profile_id)
        .order_by(Passkey.created_at, Passkey.id)
    )
    return [_row(p) for p in rows]


def count_of(s: Session, profile_id: str) -> int:
    return int(
        s.scalar(select(func.count()).select_from(Passkey).where(Passkey.profile_id == profile_id))
        or 0
    )


def by_credential(s: Session, credential_id: str) -> PasskeyRow | None:
    found = s.scalar(select(Passkey).where(Passkey.credential_id == credential_id))
    return None if found is None else _row(found)


def insert(
    s: Session,
    profile_id: str,
    credential_id: str,
    public_key: bytes,
    sign_count: int,
    transports: list[str],
    name: str,
    now: datetime,
) -> PasskeyRow:
    p = Passkey(
        id=secrets.token_urlsafe(9),
        profile_id=profile_id,
        credential_id=credential_id,
        public_key=public_key,
        sign_count=sign_count,
        transports=transports,
        name=name,
        created_at=now,
        last_used_at=None,
    )
    s.add(p)
    s.flush()
    return _row(p)


def record_use(s: Session, passkey_id: str, old_count: int, new_count: int, now: datetime) -> bool:
    """The new sign count and last use, only if the count is still the one checked against
    (two sign-ins racing with one answer: the second finds the count moved and is refused)."""
    done = s.execute(
        update(Passkey)
        .where(Passkey.id == passkey_id, Passkey.sign_count == old_count)
        .values(sign_count=new_count, last_used_at=now),
        execution_options={"synchronize_session": False},
    )
    return int(done.rowcount) == 1  # type: ignore[attr-defined]


def remove(s: Session, profile_id: str, passkey_id: str) -> bool:
    done = s.execute(
        delete(Passkey).where(Passkey.id == passkey_id, Passkey.profile_id == profile_id)
    )
    return int(done.rowcount) > 0  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------ challenges
def add_challenge(
    s: Session, digest: str, purpose: str, profile_id: str | None, until: float
) -> None:
    s.add(PasskeyChallenge(hash=digest, purpose=purpose, profile_id=profile_id, expires_at=until))


def spend_challenge(
    s: Session, digest: str, purpose: str, profile_id: str | None, now: float
) -> bool:
    """Delete the challenge if it was open, unexpired, for ``purpose`` and ``profile_id``:
    true exactly once."""
    owner = (
        PasskeyChallenge.profile_id.is_(None)
        if profile_id is None
        else PasskeyChallenge.profile_id == profile_id
    )
    done = s.execute(
        delete(PasskeyChallenge).where(
            PasskeyChallenge.hash == digest,
            PasskeyChallenge.purpose == purpose,
            PasskeyChallenge.expires_at > now,
            owner,
        )
    )
    return int(done.rowcount) == 1  # type: ignore[attr-defined]


def prune_challenges(s: Session, now: float) -> None:
    s.execute(delete(PasskeyChallenge).where(PasskeyChallenge.expires_at <= now))
