"""The guided first game: whether the profile finished or dismissed it (null: not yet).

Revision ID: 0875
Revises: 0870
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0875"
down_revision = "0870"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("profile") as batch:
        batch.add_column(sa.Column("guide", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("profile") as batch:
        batch.drop_column("guide")
