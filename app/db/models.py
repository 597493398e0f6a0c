"""Tables: profile, game table (snapshot + version), seat, and the append-only move log."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Profile(Base):
    __tablename__ = "profile"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    recovery_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Sessions: a token is good only while it names the current generation. Sign out everywhere
    # and every recovery add one, cutting off every token issued before (migration 0310).
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class GameTable(Base):
    __tablename__ = "game_table"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite_code: Mapped[str] = mapped_column(String(32))
    host_profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"))
    seat_count: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # lobby -> playing -> finished (or closed: everybody left before the start)
    status: Mapped[str] = mapped_column(String(16), default="lobby", index=True)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # The options exactly as handed to the engine (start player resolved): replay needs them.
    engine_options: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Seat(Base):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_seat_table_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    # A seat is held by a person (profile_id) or by a server-side bot (bot_level).
    profile_id: Mapped[str | None] = mapped_column(
        ForeignKey("profile.id"), nullable=True, index=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MoveRecord(Base):
    __tablename__ = "move"
    __table_args__ = (
        UniqueConstraint("table_id", "version", name="uq_move_table_version"),
        UniqueConstraint("table_id", "move_id", name="uq_move_table_move_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)  # the table version this move produced
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON)  # raw engine events; redact before sending
    move_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
