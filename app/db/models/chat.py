"""Table chat: the messages and the mutes. Owned by app/chat: another feature reads or writes these
rows through its published functions only (docs/architecture.md, "Data")."""

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


class ChatMessage(Base):
    __tablename__ = "chat_message"
    __table_args__ = (
        # Exactly once: a retried message (same client msg_id) is the first one, never a copy.
        UniqueConstraint("table_id", "profile_id", "msg_id", name="uq_chat_table_profile_msg"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), index=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    msg_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMute(Base):
    """A viewer does not want to read one seat's messages at one table (on every device)."""

    __tablename__ = "chat_mute"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
