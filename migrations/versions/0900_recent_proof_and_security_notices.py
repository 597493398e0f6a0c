"""A device session's last proof that it is its person (a sign-in, or a re-entered recovery code
or passkey: changes to the ways in need a recent one), the security notices a profile's devices
are shown ("a passkey was added — not you?"), how far each device has seen them, and the device
that asked for an address's confirmation link.

Revision ID: 0900
Revises: 0895
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0900"
down_revision = "0895"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("device_session") as batch:
        batch.add_column(sa.Column("proved_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("notices_seen", sa.Integer(), nullable=True))
    with op.batch_alter_table("email_token") as batch:
        batch.add_column(sa.Column("session_id", sa.String(24), nullable=True))
    op.create_table(
        "security_notice",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("session_id", sa.String(24), nullable=True),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("detail", sa.String(254), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_security_notice_profile_id", "security_notice", ["profile_id"])


def downgrade() -> None:
    op.drop_index("ix_security_notice_profile_id", table_name="security_notice")
    op.drop_table("security_notice")
    with op.batch_alter_table("email_token") as batch:
        batch.drop_column("session_id")
    with op.batch_alter_table("device_session") as batch:
        batch.drop_column("notices_seen")
        batch.drop_column("proved_at")
