"""Analysis after the game: a queue of analysis jobs shared by the instances, and the result of
each analysed position (stored as it is computed, so an interrupted analysis resumes).

Revision ID: 0890
Revises: 0880
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0890"
down_revision = "0880"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_job",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("record_key", sa.String(64), nullable=False),
        sa.Column("bot_version", sa.String(64), nullable=False),
        sa.Column("replay_id", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("record_key", "bot_version", name="uq_analysis_job_key"),
    )
    op.create_index("ix_analysis_job_status", "analysis_job", ["status"])
    op.create_table(
        "analysis_position",
        sa.Column(
            "job_id",
            sa.Integer(),
            sa.ForeignKey("analysis_job.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("expected", sa.JSON(), nullable=False),
        sa.Column("preferred", sa.JSON(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("analysis_position")
    op.drop_index("ix_analysis_job_status", table_name="analysis_job")
    op.drop_table("analysis_job")
