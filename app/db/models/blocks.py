"""Who blocked whom. Owned by app/blocks: another feature reads or writes these rows through its
published functions only (docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


class PersonBlock(Base):
    """``profile_id`` blocked ``blocked_id``: the blocked person cannot invite them or find them
    among the people they play with, and their chat is hidden from them at every table."""

    __tablename__ = "person_block"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
