"""At most one unfinished campaign game per profile, enforced by the database.

A partial unique index on ``solo_game(profile_id)`` over the campaign rows whose result is not
recorded yet: two campaign starts racing in two server processes cannot both register a game.
Rows that already break the rule (from before) keep the oldest as the campaign game; the later
ones become high-score games, so no result is lost.

Revision ID: 0200_solo_one_open_campaign
Revises: 0100_solo
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0200_solo_one_open_campaign"
down_revision = "0100_solo"
branch_labels = None
depends_on = None

INDEX = "uq_solo_game_open_campaign"
WHERE = "mode = 'campaign' AND finished_at IS NULL"


def upgrade() -> None:
    op.execute(
        "UPDATE solo_game SET mode = 'high_score' "
        "WHERE mode = 'campaign' AND finished_at IS NULL AND EXISTS ("
        " SELECT 1 FROM solo_game AS o"
        " WHERE o.profile_id = solo_game.profile_id"
        " AND o.mode = 'campaign' AND o.finished_at IS NULL"
        " AND (o.created_at < solo_game.created_at"
        "  OR (o.created_at = solo_game.created_at AND o.table_id < solo_game.table_id)))"
    )
    op.create_index(
        INDEX,
        "solo_game",
        ["profile_id"],
        unique=True,
        postgresql_where=sa.text(WHERE),
        sqlite_where=sa.text(WHERE),
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="solo_game")
