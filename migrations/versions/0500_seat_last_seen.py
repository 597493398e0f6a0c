"""What each seat's person last saw: ``seat.last_seen_version``.

The server remembers, per seat, the last table version its person saw, so "since you looked"
(``GET /api/tables/{id}/since``) holds across devices and restarts. Existing seats start at 0.

Revision ID: 0500
Revises: 0310
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0500"
down_revision = "0400"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.add_column(
            sa.Column("last_seen_version", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("last_seen_version")
