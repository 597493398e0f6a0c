"""Passkeys: WebAuthn users, credentials and challenges. Owned by app/passkeys: another feature
reads or writes these rows through its published functions only (docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    LargeBinary,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


class PasskeyUser(Base):
    """The opaque WebAuthn user handle of a profile (random, never its id): one per profile,
    made with its first passkey (migration 0870)."""

    __tablename__ = "passkey_user"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    handle: Mapped[str] = mapped_column(String(64), unique=True)


class Passkey(Base):
    """A profile's WebAuthn credential: its id (base64url), public key (COSE) and sign count."""

    __tablename__ = "passkey"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    transports: Mapped[list[str]] = mapped_column(JSON, default=list)
    name: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallenge(Base):
    """A registration or sign-in challenge: only its hash is kept; single use, short-lived."""

    __tablename__ = "passkey_challenge"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))  # register | signin
    # The profile a registration is for (None for a sign-in: nobody is known yet).
    profile_id: Mapped[str | None] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), nullable=True
    )
    expires_at: Mapped[float] = mapped_column(Float, index=True)
