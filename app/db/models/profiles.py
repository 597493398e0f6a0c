"""Who is who: a profile, its device sessions, its security notices, device codes. Owned by
app/profiles: another feature reads or writes these rows through its published functions only
(docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


class Profile(Base):
    __tablename__ = "profile"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    recovery_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Sessions: a token is good only while it names the current generation. Sign out everywhere
    # and every recovery add one, cutting off every token issued before (migration 0310).
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The guided first game: "finished" or "dismissed" once the person got past it; null before
    # (migration 0875; app/tutorial).
    guide: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)
    # An operator's suspension (migration 0920; app/profiles/suspension.py): while set, the
    # profile cannot open tables or invite. ``deleted_at``: the person deleted the profile; only
    # its id and a neutral name are left, for the seats it held in other people's games.
    suspended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    suspended_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class DeviceSession(Base):
    """One signed-in device of a profile (its tokens name it): listed in My devices, signed out
    one by one. ``how`` it began: created | recovery | added | email | passkey | earlier."""

    __tablename__ = "device_session"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    device: Mapped[str] = mapped_column(String(80))
    # The person's own name for this device (None: not named; My devices shows ``device``).
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    how: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # When this device last said "that was me" to a recovery elsewhere (None: never).
    acknowledged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # When this device last proved it is its person: its sign-in, or a re-entered recovery code
    # or passkey (None: never, e.g. a session from before device sessions). Adding or removing a
    # passkey or an address needs this to be recent (migration 0900).
    proved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The newest security notice this device dismissed (None: none).
    notices_seen: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SecurityNotice(Base):
    """A change to the ways into a profile, shown to its other devices until each dismisses it:
    ``kind`` passkey_added | address_added | address_changed; ``detail`` the passkey's name or
    the new address; ``session_id`` the device that made it (None: unknown)."""

    __tablename__ = "security_notice"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    session_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    kind: Mapped[str] = mapped_column(String(24))
    detail: Mapped[str] = mapped_column(String(254))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DeviceCode(Base):
    """A short code a signed-in device shows to add another: its hash, once, for 10 minutes."""

    __tablename__ = "device_code"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id", ondelete="CASCADE"))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
