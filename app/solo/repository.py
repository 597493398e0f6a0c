"""All the SQL of solo games (the ``solo_game`` rows; of their tables, what the tables publish)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from app.solo.models import SoloGame
from app.tables import published
from app.tables.status import TableStatus


def open_campaign_game(s: Session, profile_id: str) -> str | None:
    """The table of the profile's unfinished campaign game still in play, oldest first."""
    return s.scalar(
        select(SoloGame.table_id)
        .where(
            SoloGame.profile_id == profile_id,
            SoloGame.mode == "campaign",
            SoloGame.finished_at.is_(None),
            SoloGame.table_id.in_(published.tables_in(TableStatus.PLAYING)),
        )
        .order_by(SoloGame.created_at)
        .limit(1)
    )


def record_result(s: Session, table_id: str, finished_at: datetime, values: dict[str, Any]) -> bool:
    """Fill in the result once: only while ``finished_at`` is still empty (True: this call did)."""
    result = s.execute(
        update(SoloGame)
        .where(SoloGame.table_id == table_id, SoloGame.finished_at.is_(None))
        .values(finished_at=finished_at, **values)
        .execution_options(synchronize_session=False)
    )
    return cast(CursorResult[Any], result).rowcount == 1


def unrecorded_finished(s: Session, profile_id: str) -> Sequence[str]:
    """The profile's finished one-seat tables whose solo result is not recorded yet."""
    finished = published.finished_solo_tables(s, profile_id)
    if not finished:
        return []
    recorded = set(
        s.scalars(
            select(SoloGame.table_id).where(
                SoloGame.table_id.in_(finished), SoloGame.finished_at.is_not(None)
            )
        )
    )
    return [t for t in finished if t not in recorded]


def finished_games(s: Session, profile_id: str) -> Sequence[SoloGame]:
    """The profile's solo games with a recorded result."""
    return s.scalars(
        select(SoloGame).where(SoloGame.profile_id == profile_id, SoloGame.finished_at.is_not(None))
    ).all()


def open_games(s: Session, profile_id: str) -> Sequence[Any]:
    """(table_id, mode, building_start, created_at) of the profile's solo games in play, newest
    first."""
    return s.execute(
        select(SoloGame.table_id, SoloGame.mode, SoloGame.building_start, SoloGame.created_at)
        .where(
            SoloGame.profile_id == profile_id,
            SoloGame.finished_at.is_(None),
            SoloGame.table_id.in_(published.tables_in(TableStatus.PLAYING)),
        )
        .order_by(SoloGame.created_at.desc())
    ).all()
