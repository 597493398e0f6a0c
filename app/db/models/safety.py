"""Reports of a chat message or a name, for the operator's queue (docs/privacy.md says what a
report keeps and for how long). Owned by app/safety: another feature reads or writes these rows
through its published functions only (docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


class Report(Base):
    """A person reported a chat message or a name they saw at a table. It keeps what was
    reported as it was then (``message_text``, ``reported_name``), whatever happens to the
    message or the name later. ``subject`` names what was reported (``message:<id>`` or
    ``name:<profile>:<name>``): one report per reporter and subject. ``reporter_id`` is seen by
    the operator only; it is emptied when the reporter deletes their profile."""

    __tablename__ = "report"
    __table_args__ = (
        UniqueConstraint("reporter_id", "subject", name="uq_report_reporter_subject"),
        Index("ix_report_reporter_status", "reporter_id", "status"),
        Index("ix_report_status_created", "status", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str | None] = mapped_column(
        ForeignKey("profile.id", ondelete="SET NULL"), nullable=True
    )
    reported_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_table.id", ondelete="SET NULL"), nullable=True
    )
    kind: Mapped[str] = mapped_column(String(16))  # message | name
    subject: Mapped[str] = mapped_column(String(120))
    message_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    message_text: Mapped[str | None] = mapped_column(String(500), nullable=True)
    message_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    reported_name: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(500), nullable=True)
    status: Mapped[str] = mapped_column(String(16))  # open | resolved | dismissed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # What the operator wrote when closing it (never shown to anyone else).
    resolution: Mapped[str | None] = mapped_column(String(500), nullable=True)
