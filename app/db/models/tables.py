"""The tables' rows: a game table (snapshot + version), its seats, and the append-only move log.
Owned by app/tables: another feature reads or writes these rows through its published functions
only (docs/architecture.md, "Data")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Enum,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, utcnow
from app.db.table_status import TableStatus


class GameTable(Base):
    __tablename__ = "game_table"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite_code: Mapped[str] = mapped_column(String(32))
    host_profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"))
    seat_count: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # lobby -> playing -> finished (or closed: everybody left before the start)
    # Stored as its value in a VARCHAR(16) (no database enum type); read back as TableStatus.
    status: Mapped[TableStatus] = mapped_column(
        Enum(
            TableStatus,
            native_enum=False,
            length=16,
            values_callable=lambda e: [m.value for m in e],
        ),
        default=TableStatus.LOBBY,
        index=True,
    )
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # The options exactly as handed to the engine (start player resolved): replay needs them.
    engine_options: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    # Bumped in the transaction of every seat change (join, leave, a bot put, removed, handed a
    # seat or reclaimed): a move's conditional update checks it, so the seats a move was judged
    # with are the table's seats on every instance (migration 0300).
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # --- Pace (migration 0400): the clock blob (app/pace/clock.py) and the earliest deadline of
    # a person's seat to act, epoch seconds (NULL: no clock runs); written by the move's UPDATE.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    # --- Play again (migration 0850): the host's name for the table, and the table of its
    # rematch (set once, by the first player who asks for it).
    name: Mapped[str | None] = mapped_column(String(60), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


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
    # The last table version this seat's person saw ("since you looked"; migration 0500): only
    # moves forward, kept across devices and restarts.
    last_seen_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class MoveRecord(Base):
    __tablename__ = "move"
    __table_args__ = (
        UniqueConstraint("table_id", "version", name="uq_move_table_version"),
        # A move_id is unique per seat: one seat cannot spend another seat's id (migration 0300).
        UniqueConstraint("table_id", "seat", "move_id", name="uq_move_table_seat_move_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)  # the table version this move produced
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON)  # raw engine events; redact before sending
    move_id: Mapped[str] = mapped_column(String(64))
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
