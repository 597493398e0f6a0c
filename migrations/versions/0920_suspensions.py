"""Suspensions and deleted profiles: an operator may suspend a profile (it cannot open tables or
invite while suspended); a deleted profile keeps only its id and a neutral name, so the seats it
held in finished games stay whole.

Revision ID: 0920
Revises: 0915
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0920"
down_revision = "0915"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("profile") as batch:
        batch.add_column(sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("suspended_reason", sa.String(200), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("profile") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("suspended_reason")
        batch.drop_column("suspended_at")
