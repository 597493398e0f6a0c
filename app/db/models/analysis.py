"""Analysis after the game: the jobs, their positions and who asked. Owned by app/analysis: another
feature reads or writes these rows through its published functions only (docs/architecture.md,
"Data")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow


# --- Analysis after the game (migration 0890) ----------------------------------------------------
class AnalysisJob(Base):
    """One analysis of one game record by one bot version, queued for any instance to run
    (docs/analysis.md). ``lease_owner`` runs it until ``lease_until`` (epoch seconds of the
    injected clock); a lease run out is anyone's to take over."""

    __tablename__ = "analysis_job"
    __table_args__ = (UniqueConstraint("record_key", "bot_version", name="uq_analysis_job_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    record_key: Mapped[str] = mapped_column(String(64))
    bot_version: Mapped[str] = mapped_column(String(64))
    replay_id: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), index=True)
    total: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AnalysisPosition(Base):
    """The analysis of one position: each player's expected final score (from the view of
    ``seat``, the seat to act), and, where a swing needs it, the bot's preferred move there."""

    __tablename__ = "analysis_position"

    job_id: Mapped[int] = mapped_column(
        ForeignKey("analysis_job.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    expected: Mapped[list[float]] = mapped_column(JSON)
    preferred: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Where a swing or luck was measured (app/analysis/measure.py): the move's cost and each
    # seat's luck, [mean, standard error].
    measured: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class AnalysisRequest(Base):
    """Who asked for an analysis: one row per job and requester (a profile, or an address for
    someone not signed in), with the address it came from. The caps count a requester's rows
    whose job is not finished; the queue serves the requester served least recently first
    (``served_at``: when a job of theirs was last taken up, epoch seconds of the injected
    clock)."""

    __tablename__ = "analysis_request"
    __table_args__ = (
        UniqueConstraint("job_id", "requester", name="uq_analysis_request_job_requester"),
        Index("ix_analysis_request_requester_served", "requester", "served_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    job_id: Mapped[int] = mapped_column(
        ForeignKey("analysis_job.id", ondelete="CASCADE"), index=True
    )
    requester: Mapped[str] = mapped_column(String(80))
    profile_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    address: Mapped[str] = mapped_column(String(80), index=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    served_at: Mapped[float | None] = mapped_column(Float, nullable=True)
