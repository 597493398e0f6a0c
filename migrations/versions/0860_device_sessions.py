"""Devices: a session row per signed-in device (listed and signed out one by one) and the short
single-use codes that add a device.

Revision ID: 0860
Revises: 0850
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0860"
down_revision = "0850"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "device_session",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("device", sa.String(80), nullable=False),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_device_session_profile_id", "device_session", ["profile_id"])
    op.create_table(
        "device_code",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("device_code")
    op.drop_index("ix_device_session_profile_id", table_name="device_session")
    op.drop_table("device_session")
