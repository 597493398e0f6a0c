"""The ``solo_game`` table: one row per solo table, its result filled in once the game ends."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow

OPEN_CAMPAIGN = "mode = 'campaign' AND finished_at IS NULL"


class SoloGame(Base):
    __tablename__ = "solo_game"
    # At most one unfinished campaign game per profile (migration 0200): two starts racing in
    # two processes cannot both register one; the loser resumes the winner's game.
    __table_args__ = (
        Index(
            "uq_solo_game_open_campaign",
            "profile_id",
            unique=True,
            postgresql_where=text(OPEN_CAMPAIGN),
            sqlite_where=text(OPEN_CAMPAIGN),
        ),
    )

    # One row per table: recording a result is an UPDATE of this row guarded by
    # ``finished_at IS NULL``, so it happens exactly once whoever calls it first.
    # No foreign key to game_table: results outlive any clean-up of old tables.
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"), index=True)
    mode: Mapped[str] = mapped_column(String(16))  # "campaign" | "high_score"
    building_start: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    cp: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bp: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    victoria_cp: Mapped[int | None] = mapped_column(Integer, nullable=True)
    victoria_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
