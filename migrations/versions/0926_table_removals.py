"""A host removes a person from a table's lobby: the person cannot join it again with its link,
nor look at it, unless the host invites them again.

Revision ID: 0926
Revises: 0925
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0926"
down_revision = "0925"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_removal",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_removal_profile_id", "table_removal", ["profile_id"])


def downgrade() -> None:
    op.drop_index("ix_table_removal_profile_id", table_name="table_removal")
    op.drop_table("table_removal")
