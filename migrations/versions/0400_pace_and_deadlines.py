"""Pace and deadlines: the table's clock and earliest deadline, the pace log, push subscriptions.

Revision ID: 0400
Revises: 0310
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0400"
down_revision = "0310"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float(), nullable=True))
        batch.create_index("ix_game_table_deadline", ["deadline"])
    op.create_table(
        "table_event",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_event_table_id", "table_event", ["table_id"])
    op.create_table(
        "push_subscription",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscription_profile_id", "push_subscription", ["profile_id"])


def downgrade() -> None:
    op.drop_index("ix_push_subscription_profile_id", table_name="push_subscription")
    op.drop_table("push_subscription")
    op.drop_index("ix_table_event_table_id", table_name="table_event")
    op.drop_table("table_event")
    with op.batch_alter_table("game_table") as batch:
        batch.drop_index("ix_game_table_deadline")
        batch.drop_column("deadline")
        batch.drop_column("clock")
