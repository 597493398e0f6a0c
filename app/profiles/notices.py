"""Security notices: a change to the ways into a profile (a passkey added, the e-mail address
added or changed) is written in the same transaction as the change, and shown to the profile's
other devices on their next visit ("not you? sign out everywhere") until each dismisses it.

A device sees the notices made after it signed in, by another device, newer than the last one it
dismissed; the device that made a change never sees its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from app.db.models import DeviceSession, SecurityNotice

# A profile keeps (and a device is shown) at most this many notices, the newest: a long list
# says no more (the setting ``security_notices_kept``).
KEPT = 20


class NoticeKind(StrEnum):
    PASSKEY_ADDED = "passkey_added"
    ADDRESS_ADDED = "address_added"
    ADDRESS_CHANGED = "address_changed"


@dataclass(frozen=True)
class Notice:
    id: int
    kind: NoticeKind
    detail: str  # the passkey's name, or the new address
    device: str | None  # the device that made the change, when it is still known
    at: datetime


def record(
    s: Session,
    profile_id: str,
    session_id: str | None,
    kind: NoticeKind,
    detail: str,
    at: datetime,
    kept: int = KEPT,
) -> None:
    """Write a notice; the profile's older ones beyond the newest ``kept`` are dropped."""
    s.add(
        SecurityNotice(
            profile_id=profile_id,
            session_id=session_id,
            kind=kind.value,
            detail=detail[:254],
            at=at,
        )
    )
    s.flush()
    oldest_kept = s.scalar(
        select(SecurityNotice.id)
        .where(SecurityNotice.profile_id == profile_id)
        .order_by(SecurityNotice.id.desc())
        .offset(kept - 1)
        .limit(1)
    )
    if oldest_kept is not None:
        s.execute(
            delete(SecurityNotice).where(
                SecurityNotice.profile_id == profile_id, SecurityNotice.id < oldest_kept
            )
        )


def for_device(s: Session, session_id: str, kept: int = KEPT) -> list[Notice]:
    """The notices this device has not dismissed, newest first (at most ``kept``)."""
    me = s.get(DeviceSession, session_id)
    if me is None:
        return []
    maker = DeviceSession.__table__.alias("maker")
    rows = s.execute(
        select(
            SecurityNotice.id,
            SecurityNotice.kind,
            SecurityNotice.detail,
            SecurityNotice.at,
            maker.c.device,
        )
        .outerjoin(maker, maker.c.id == SecurityNotice.session_id)
        .where(
            SecurityNotice.profile_id == me.profile_id,
            or_(SecurityNotice.session_id.is_(None), SecurityNotice.session_id != me.id),
            SecurityNotice.at >= me.created_at,
            SecurityNotice.id > (me.notices_seen or 0),
        )
        .order_by(SecurityNotice.id.desc())
        .limit(kept)
    ).all()
    return [Notice(r.id, NoticeKind(r.kind), r.detail, r.device, r.at) for r in rows]


def dismiss(s: Session, session_id: str, through: int) -> None:
    """This device has seen the notices up to ``through`` (never beyond the newest there is,
    never back)."""
    me = s.get(DeviceSession, session_id)
    if me is None:
        return
    newest = s.scalar(
        select(func.max(SecurityNotice.id)).where(SecurityNotice.profile_id == me.profile_id)
    )
    seen = min(through, newest or 0)
    if seen > (me.notices_seen or 0):
        s.execute(
            update(DeviceSession).where(DeviceSession.id == session_id).values(notices_seen=seen)
        )
