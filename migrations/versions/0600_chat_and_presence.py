"""Presence (who has a socket open, per instance, with an expiry; when they were last seen) and
table chat (messages, exactly once per client msg_id; per-viewer mutes).

Revision ID: 0600
Revises: 0310
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0600"
down_revision = "0500"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profile.id"), primary_key=True),
        sa.Column("instance", sa.String(64), primary_key=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_presence_expires_at", "presence", ["expires_at"])
    op.create_table(
        "presence_seen",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profile.id"), primary_key=True),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "chat_message",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profile.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("msg_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "profile_id", "msg_id", name="uq_chat_table_profile_msg"),
    )
    op.create_index("ix_chat_message_table_id", "chat_message", ["table_id"])
    op.create_table(
        "chat_mute",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_table.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profile.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("chat_mute")
    op.drop_index("ix_chat_message_table_id", table_name="chat_message")
    op.drop_table("chat_message")
    op.drop_table("presence_seen")
    op.drop_index("ix_presence_expires_at", table_name="presence")
    op.drop_table("presence")
