"""Invitation blocks: a profile takes no more invitations from another one.

Revision ID: 0905
Revises: 0900
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0905"
down_revision = "0900"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invitation_block",
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "blocked_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("invitation_block")
