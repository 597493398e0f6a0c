"""Profiles, tables, seats and the move log.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profile",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("recovery_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_profile_recovery_hash", "profile", ["recovery_hash"])
    op.create_table(
        "game_table",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("invite_code", sa.String(32), nullable=False),
        sa.Column("host_profile_id", sa.String(32), sa.ForeignKey("profile.id"), nullable=False),
        sa.Column("seat_count", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("engine_options", sa.JSON, nullable=True),
        sa.Column("state", sa.JSON, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_table_status", "game_table", ["status"])
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profile.id"), nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_seat_table_seat"),
    )
    op.create_index("ix_seat_profile_id", "seat", ["profile_id"])
    op.create_table(
        "move",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.JSON, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("move_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "version", name="uq_move_table_version"),
        sa.UniqueConstraint("table_id", "move_id", name="uq_move_table_move_id"),
    )


def downgrade() -> None:
    op.drop_table("move")
    op.drop_index("ix_seat_profile_id", table_name="seat")
    op.drop_table("seat")
    op.drop_index("ix_game_table_status", table_name="game_table")
    op.drop_table("game_table")
    op.drop_index("ix_profile_recovery_hash", table_name="profile")
    op.drop_table("profile")
