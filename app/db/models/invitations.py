"""Play again: invitations to a table, and the declines that keep an inviter quiet. Owned by
app/invitations: another feature reads or writes these rows through its published functions only
(docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


# --- Play again and e-mail (migration 0850) ------------------------------------------------------
class TableInvitation(Base):
    """A person asked to sit at a table (a rematch, or the host's invitation from "People I play
    with"): the seat stays theirs while the invitation is pending."""

    __tablename__ = "table_invitation"
    __table_args__ = (
        UniqueConstraint("table_id", "profile_id", name="uq_invitation_table_profile"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), index=True
    )
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    inviter_id: Mapped[str] = mapped_column(ForeignKey("profile.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(16))  # rematch | invite
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | accepted | ...
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class InvitationBlock(Base):
    """``profile_id`` takes no more invitations (nor rematch invitations) from ``blocked_id``."""

    __tablename__ = "invitation_block"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
