"""Device names: a person may name each of their signed-in devices ("Kitchen tablet").

Revision ID: 0910
Revises: 0905
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0910"
down_revision = "0905"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("device_session") as batch:
        batch.add_column(sa.Column("name", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("device_session") as batch:
        batch.drop_column("name")
