"""The ways into a profile and when each was added: its passkeys and its e-mail address. "Sign
out everywhere" lists them and, when asked, removes those added since a chosen time in the same
transaction that cuts the sessions off (on every instance: it is all in the database), so that a
passkey or an address someone else added does not sign them straight back in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.db.models import DeviceSession, EmailAddress, EmailToken, Passkey


@dataclass(frozen=True)
class AddedPasskey:
    id: str
    name: str
    added_at: datetime


@dataclass(frozen=True)
class AddedAddress:
    address: str
    added_at: datetime  # when it was confirmed (a change confirms the new address)


@dataclass(frozen=True)
class WaysIn:
    passkeys: list[AddedPasskey]
    address: AddedAddress | None
    # When the profile's newest signed-in device began: what is removed by default.
    newest_session_at: datetime | None


@dataclass(frozen=True)
class Removed:
    passkeys: int
    address: bool


def utc(at: datetime) -> datetime:
    """Aware UTC (SQLite hands timestamps back without their zone: they were stored in UTC)."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def ways_in(s: Session, profile_id: str) -> WaysIn:
    keys = s.execute(
        select(Passkey.id, Passkey.name, Passkey.created_at)
        .where(Passkey.profile_id == profile_id)
        .order_by(Passkey.created_at, Passkey.id)
    ).all()
    row = s.get(EmailAddress, profile_id)
    newest = s.scalar(
        select(func.max(DeviceSession.created_at)).where(
            DeviceSession.profile_id == profile_id, DeviceSession.revoked_at.is_(None)
        )
    )
    return WaysIn(
        [AddedPasskey(k.id, k.name, utc(k.created_at)) for k in keys],
        None if row is None else AddedAddress(row.address, utc(row.confirmed_at)),
        None if newest is None else utc(newest),
    )


def remove_added_since(s: Session, profile_id: str, since: datetime) -> Removed:
    """Remove the profile's passkeys added at or after ``since``, and its address if it was added
    or changed then; links still open for the profile (a confirmation of an address, a sign-in)
    are forgotten whatever the time."""
    since = utc(since)
    gone = s.execute(
        delete(Passkey).where(Passkey.profile_id == profile_id, Passkey.created_at >= since)
    )
    address = s.execute(
        delete(EmailAddress).where(
            EmailAddress.profile_id == profile_id, EmailAddress.confirmed_at >= since
        )
    )
    forget_links(s, profile_id)
    return Removed(
        int(getattr(gone, "rowcount", 0) or 0), int(getattr(address, "rowcount", 0) or 0) > 0
    )


def forget_links(s: Session, profile_id: str) -> None:
    """Every confirmation and sign-in link of the profile still open stops working."""
    s.execute(delete(EmailToken).where(EmailToken.profile_id == profile_id))
