"""All the SQL of a profile's history: its finished tables and who sat at them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import GameTable, Profile, Seat
from app.tables.status import TableStatus


class FinishedRow(NamedTuple):
    table_id: str
    name: str | None
    seat_count: int
    engine_options: dict[str, Any] | None
    state: dict[str, Any] | None
    finished_at: datetime | None
    my_seat: int


def finished(s: Session, profile_id: str, limit: int) -> list[FinishedRow]:
    """The profile's finished tables (at most ``limit``), latest end first (ties by id): one
    row per table, the seat it held there (a seat handed to a bot is still its seat)."""
    rows = s.execute(
        select(
            GameTable.id,
            GameTable.name,
            GameTable.seat_count,
            GameTable.engine_options,
            GameTable.state,
            GameTable.updated_at,
            Seat.seat,
        )
        .join(Seat, Seat.table_id == GameTable.id)
        .where(Seat.profile_id == profile_id, GameTable.status == TableStatus.FINISHED)
        .order_by(GameTable.updated_at.desc(), GameTable.id.desc())
        .limit(limit)
    ).all()
    return [FinishedRow(*r) for r in rows]


def seats_of(s: Session, table_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Seat, person's name (null for a bot of its own) and bot level of each table's seats."""
    out: dict[str, list[dict[str, Any]]] = {}
    if not table_ids:
        return out
    rows = s.execute(
        select(Seat.table_id, Seat.seat, Profile.name, Seat.bot_level)
        .outerjoin(Profile, Profile.id == Seat.profile_id)
        .where(Seat.table_id.in_(table_ids))
        .order_by(Seat.table_id, Seat.seat)
    ).all()
    for table_id, seat, name, level in rows:
        out.setdefault(table_id, []).append({"seat": seat, "name": name, "bot_level": level})
    return out
