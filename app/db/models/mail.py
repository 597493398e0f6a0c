"""E-mail: addresses, sign-in tokens and the outbox of game notifications. Owned by app/mail:
another feature reads or writes these rows through its published functions only
(docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


class EmailAddress(Base):
    """A profile's confirmed e-mail address (at most one; an address belongs to one profile)."""

    __tablename__ = "email_address"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(254), unique=True)
    lang: Mapped[str] = mapped_column(String(2), default="en")
    # Game notifications wanted (one-click unsubscribe turns this off; sign-in links still work).
    notify: Mapped[bool] = mapped_column(Boolean, default=True)
    confirmed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EmailToken(Base):
    """A confirmation or sign-in link: only its hash is kept; single use, short-lived."""

    __tablename__ = "email_token"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    purpose: Mapped[str] = mapped_column(String(16))  # confirm | signin
    address: Mapped[str] = mapped_column(String(254))
    lang: Mapped[str] = mapped_column(String(2), default="en")
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    used: Mapped[bool] = mapped_column(Boolean, default=False)
    # The device session that asked for a confirmation link (its change is not a notice to it).
    session_id: Mapped[str | None] = mapped_column(String(24), nullable=True, default=None)


class EmailOutbox(Base):
    """A game notification to send by e-mail: queued after the commit of what caused it, sent
    (or dropped) when due by whichever instance claims it first."""

    __tablename__ = "email_outbox"
    __table_args__ = (UniqueConstraint("dedupe", name="uq_email_outbox_dedupe"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), nullable=True, index=True
    )
    kind: Mapped[str] = mapped_column(String(16))  # your_turn | time_short | game_over
    dedupe: Mapped[str] = mapped_column(String(160))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    due_at: Mapped[float] = mapped_column(Float, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | sent | dropped
    done_at: Mapped[float | None] = mapped_column(Float, nullable=True)
