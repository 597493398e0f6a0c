"""The rows that let people protect themselves (migrations 0925 and 0926): a person blocked by
another, a person a host removed from a table's lobby, and a report of a chat message or a name
for the operator's queue (docs/privacy.md says what a report keeps and for how long)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


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


class TableRemoval(Base):
    """The host removed ``profile_id`` from the table's lobby: they cannot join it again with
    its link, nor look at it, unless the host invites them again."""

    __tablename__ = "table_removal"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    removed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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
