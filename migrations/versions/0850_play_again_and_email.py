"""Play again (a table's name, its rematch, invitations to a table) and e-mail (confirmed
addresses, single-use link tokens, the outbox of game notifications).

Revision ID: 0850
Revises: 0600
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0850"
down_revision = "0600"
branch_labels = None
depends_on = None


def _profile(name: str = "profile_id") -> sa.Column[str]:
    return sa.Column(
        name, sa.String(32), sa.ForeignKey("profile.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("name", sa.String(60), nullable=True))
        batch.add_column(sa.Column("rematch_id", sa.String(32), nullable=True))
    op.create_table(
        "table_invitation",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            nullable=False,
        ),
        _profile(),
        _profile("inviter_id"),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("table_id", "profile_id", name="uq_invitation_table_profile"),
    )
    op.create_index("ix_table_invitation_table_id", "table_invitation", ["table_id"])
    op.create_index("ix_table_invitation_profile_id", "table_invitation", ["profile_id"])
    op.create_index("ix_table_invitation_status", "table_invitation", ["status"])
    op.create_table(
        "email_address",
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profile.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("address", sa.String(254), nullable=False, unique=True),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("notify", sa.Boolean(), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "email_token",
        sa.Column("hash", sa.String(64), primary_key=True),
        _profile(),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_email_token_profile_id", "email_token", ["profile_id"])
    op.create_index("ix_email_token_expires_at", "email_token", ["expires_at"])
    op.create_table(
        "email_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile(),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("dedupe", sa.String(160), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("dedupe", name="uq_email_outbox_dedupe"),
    )
    op.create_index("ix_email_outbox_profile_id", "email_outbox", ["profile_id"])
    op.create_index("ix_email_outbox_table_id", "email_outbox", ["table_id"])
    op.create_index("ix_email_outbox_due_at", "email_outbox", ["due_at"])
    op.create_index("ix_email_outbox_status", "email_outbox", ["status"])


def downgrade() -> None:
    op.drop_table("email_outbox")
    op.drop_table("email_token")
    op.drop_table("email_address")
    op.drop_table("table_invitation")
    with op.batch_alter_table("game_table") as batch:
        batch.drop_column("rematch_id")
        batch.drop_column("name")
