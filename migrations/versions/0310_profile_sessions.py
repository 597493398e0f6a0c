"""Sessions a person controls: the profile's token ``generation``.

A token names the generation it was issued under; signing out everywhere and every recovery add
one, and every earlier token is refused from then on, on every instance. The recovery code is
replaced in place on use (same column), so nothing else changes.

Revision ID: 0310
Revises: 0200_solo_one_open_campaign
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0310"
down_revision = "0300"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("profile") as batch:
        batch.add_column(sa.Column("generation", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("profile") as batch:
        batch.drop_column("generation")
