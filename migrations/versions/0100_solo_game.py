"""Solo games against Victoria: mode, building start value and the recorded result.

Revision ID: 0100_solo
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0100_solo"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "solo_game",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profile.id"), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("building_start", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cp", sa.Integer, nullable=True),
        sa.Column("bp", sa.Integer, nullable=True),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("victoria_cp", sa.Integer, nullable=True),
        sa.Column("victoria_score", sa.Integer, nullable=True),
        sa.Column("won", sa.Boolean, nullable=True),
    )
    op.create_index("ix_solo_game_profile_id", "solo_game", ["profile_id"])


def downgrade() -> None:
    op.drop_index("ix_solo_game_profile_id", table_name="solo_game")
    op.drop_table("solo_game")
