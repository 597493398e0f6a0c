"""Game records: the replays people import (a record checked by replaying it, owned by them).

Revision ID: 0880
Revises: 0870
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0880"
down_revision = "0875"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "imported_replay",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "owner_profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("positions", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_imported_replay_owner_profile_id", "imported_replay", ["owner_profile_id"])


def downgrade() -> None:
    op.drop_index("ix_imported_replay_owner_profile_id", table_name="imported_replay")
    op.drop_table("imported_replay")
