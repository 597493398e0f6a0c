"""Analysis requests: who asked for each analysis (a profile, or the address of someone not
signed in), so that the queue caps what one requester has waiting and serves requesters in
turn. Every job queued before this revision gets one request of an "earlier" requester.

Revision ID: 0895
Revises: 0890
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0895"
down_revision = "0890"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analysis_request",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "job_id",
            sa.Integer(),
            sa.ForeignKey("analysis_job.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("requester", sa.String(80), nullable=False),
        sa.Column("profile_id", sa.String(32), nullable=True),
        sa.Column("address", sa.String(80), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("served_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("job_id", "requester", name="uq_analysis_request_job_requester"),
    )
    op.create_index("ix_analysis_request_job_id", "analysis_request", ["job_id"])
    op.create_index("ix_analysis_request_profile_id", "analysis_request", ["profile_id"])
    op.create_index("ix_analysis_request_address", "analysis_request", ["address"])
    op.create_index(
        "ix_analysis_request_requester_served", "analysis_request", ["requester", "served_at"]
    )
    op.execute(
        "INSERT INTO analysis_request (job_id, requester, profile_id, address, requested_at) "
        "SELECT id, 'earlier', NULL, 'earlier', requested_at FROM analysis_job"
    )


def downgrade() -> None:
    op.drop_index("ix_analysis_request_requester_served", table_name="analysis_request")
    op.drop_index("ix_analysis_request_address", table_name="analysis_request")
    op.drop_index("ix_analysis_request_profile_id", table_name="analysis_request")
    op.drop_index("ix_analysis_request_job_id", table_name="analysis_request")
    op.drop_table("analysis_request")
