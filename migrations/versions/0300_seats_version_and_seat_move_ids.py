"""Seats bind the next move; a move_id is unique per seat.

- ``game_table.seats_version``: advanced in the transaction of every seat change; a move's
  conditional update checks it, so a seat handed to a bot (or taken back) binds the very next
  move on every server instance.
- The move log's ``move_id`` is unique per (table, seat) instead of per table: one seat cannot
  spend (and so block) another seat's predictable id. Downgrading first renames the ids that
  only the new key allows (two seats' moves with one id), so the old key can be built again.

Revision ID: 0300
Revises: 0200_solo_one_open_campaign
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0300"
down_revision = "0200_solo_one_open_campaign"
branch_labels = None
depends_on = None

OLD_KEY = "uq_move_table_move_id"
NEW_KEY = "uq_move_table_seat_move_id"


def upgrade() -> None:
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("seats_version", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("move") as batch:
        batch.drop_constraint(OLD_KEY, type_="unique")
        batch.create_unique_constraint(NEW_KEY, ["table_id", "seat", "move_id"])


def downgrade() -> None:
    op.execute(
        "UPDATE move SET move_id = 's' || seat || ':' || substr(move_id, 1, 58) "
        "WHERE EXISTS (SELECT 1 FROM move AS o WHERE o.table_id = move.table_id"
        " AND o.move_id = move.move_id AND o.id < move.id)"
    )
    with op.batch_alter_table("move") as batch:
        batch.drop_constraint(NEW_KEY, type_="unique")
        batch.create_unique_constraint(OLD_KEY, ["table_id", "move_id"])
    with op.batch_alter_table("game_table") as batch:
        batch.drop_column("seats_version")
