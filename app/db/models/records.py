"""Game records: imported replays. Owned by app/records: another feature reads or writes these rows
through its published functions only (docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


# --- Game records (migration 0880) ---------------------------------------------------------------
class ImportedReplay(Base):
    """A game record a person imported (checked by replaying it): a replay they own. Its id is
    unguessable (24 URL-safe characters); a finished table's replay is addressed by the table's
    own id instead and needs no row (docs/records.md)."""

    __tablename__ = "imported_replay"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    positions: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
