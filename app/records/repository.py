"""All the SQL of records and replays: the imported replays; a finished table's parts are the
tables' published functions (app/tables/published.py, published_log.py), named here as the
records read them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import ImportedReplay
from app.records.canonical import standing_indexes
from app.records.shapes import RecordDoc, RecordPlayerDoc
from app.tables.published import seated_profiles as seat_holders
from app.tables.published import seats_named, set_public_replay, table
from app.tables.published_log import LoggedMove, TableAccess, moves, table_access

__all__ = [
    "LoggedMove",
    "TableAccess",
    "add_imported",
    "count_imported",
    "imported",
    "imported_owner",
    "moves",
    "players",
    "seat_holders",
    "set_public_replay",
    "standing_moves",
    "table",
    "table_access",
]


def players(s: Session, table_id: str) -> list[RecordPlayerDoc]:
    """Seat, the person's name (null for a bot of its own) and the bot level of every seat."""
    return seats_named(s, [table_id]).get(table_id, [])


def imported_owner(s: Session, replay_id: str) -> str | None:
    """The importer of an imported replay (None: no such replay); the record is not read."""
    owner: str | None = s.scalar(
        select(ImportedReplay.owner_profile_id).where(ImportedReplay.id == replay_id)
    )
    return owner


def standing_moves(s: Session, table_id: str, upto: int) -> list[LoggedMove]:
    """The table's moves up to ``upto`` that stand: what an ``undo`` took back, and the undo
    itself, left out (app/records/canonical.py). A record holds exactly these."""
    logged = moves(s, table_id, upto)
    return [logged[i] for i in standing_indexes((m.move, m.events) for m in logged)]


def add_imported(
    s: Session, replay_id: str, owner: str, record: RecordDoc, positions: int, at: datetime
) -> None:
    s.add(
        ImportedReplay(
            id=replay_id,
            owner_profile_id=owner,
            record=record,
            positions=positions,
            created_at=at,
        )
    )
    s.flush()


def imported(s: Session, replay_id: str) -> ImportedReplay | None:
    return s.get(ImportedReplay, replay_id)


def count_imported(s: Session, owner: str) -> int:
    from sqlalchemy import func

    n = s.scalar(
        select(func.count())
        .select_from(ImportedReplay)
        .where(ImportedReplay.owner_profile_id == owner)
    )
    return int(n or 0)
