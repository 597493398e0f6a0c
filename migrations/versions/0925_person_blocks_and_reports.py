"""Players protect themselves: a person blocks another (no invitations from them, not found in
their "people I play with", their chat hidden at every table), and reports a chat message or a
name for the operator's queue.

Revision ID: 0925
Revises: 0920
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0925"
down_revision = "0920"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "person_block",
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
    op.create_index("ix_person_block_blocked_id", "person_block", ["blocked_id"])
    op.create_table(
        "report",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "reporter_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column(
            "reported_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.String(120), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=True),
        sa.Column("message_text", sa.String(500), nullable=True),
        sa.Column("message_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reported_name", sa.String(40), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolution", sa.String(500), nullable=True),
        sa.UniqueConstraint("reporter_id", "subject", name="uq_report_reporter_subject"),
    )
    op.create_index("ix_report_reported_id", "report", ["reported_id"])
    op.create_index("ix_report_reporter_status", "report", ["reporter_id", "status"])
    op.create_index("ix_report_status_created", "report", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_report_status_created", table_name="report")
    op.drop_index("ix_report_reporter_status", table_name="report")
    op.drop_index("ix_report_reported_id", table_name="report")
    op.drop_table("report")
    op.drop_index("ix_person_block_blocked_id", table_name="person_block")
    op.drop_table("person_block")
