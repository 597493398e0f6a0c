"""Analysis: each measured position's swing cost and luck, with their noise.

Revision ID: 0915
Revises: 0910
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0915"
down_revision = "0910"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("analysis_position") as batch:
        batch.add_column(sa.Column("measured", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("analysis_position") as batch:
        batch.drop_column("measured")
