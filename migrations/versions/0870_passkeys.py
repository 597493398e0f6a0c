"""Passkeys: a profile's WebAuthn credentials, its opaque user handle, and the single-use
challenges of registrations and sign-ins.

Revision ID: 0870
Revises: 0860
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0870"
down_revision = "0860"
branch_labels = None
depends_on = None


def _profile(nullable: bool = False) -> sa.Column[str]:
    return sa.Column(
        "profile_id",
        sa.String(32),
        sa.ForeignKey("profile.id", ondelete="CASCADE"),
        nullable=nullable,
    )


def upgrade() -> None:
    op.create_table(
        "passkey_user",
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("handle", sa.String(64), nullable=False, unique=True),
    )
    op.create_table(
        "passkey",
        sa.Column("id", sa.String(32), primary_key=True),
        _profile(),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_passkey_profile_id", "passkey", ["profile_id"])
    op.create_table(
        "passkey_challenge",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        _profile(nullable=True),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_passkey_challenge_expires_at", "passkey_challenge", ["expires_at"])


def downgrade() -> None:
    op.drop_table("passkey_challenge")
    op.drop_table("passkey")
    op.drop_table("passkey_user")
