"""Who is here: a profile's open sockets per table, and when each person last looked. Owned by
app/presence: another feature reads or writes these rows through its published functions only
(docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


# Presence and table chat (migration 0600)
class Presence(Base):
    """One server instance holds at least one open socket of ``profile_id`` on ``table_id``.
    Refreshed by that instance while it lives; a person is present while any unexpired row
    exists (an instance that dies stops refreshing and its rows run out)."""

    __tablename__ = "presence"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"), primary_key=True)
    instance: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeenAt(Base):
    """When a person's last socket on a table closed (or their instance's row ran out)."""

    __tablename__ = "presence_seen"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"), primary_key=True)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
