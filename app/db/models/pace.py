"""The pace log: a table's clock events (vacations, hand-overs). Owned by app/pace: another feature
reads or writes these rows through its published functions only (docs/architecture.md, "Data")."""

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


# --- Pace and Web Push (migration 0400) ---------------------------------------------------------
class TableEvent(Base):
    """What happened at a table besides moves: a seat timed out, the clock paused or resumed."""

    __tablename__ = "table_event"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
