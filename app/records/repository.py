"""All the SQL of records and replays: a finished table's parts, and the imported replays."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import rules
from app.db.models import GameTable, ImportedReplay, MoveRecord, Profile, Seat
from app.records.canonical import standing_indexes
from app.records.shapes import RecordDoc, RecordPlayerDoc


def table(s: Session, table_id: str) -> GameTable | None:
    return s.get(GameTable, table_id)


class TableAccess(NamedTuple):
    """What deciding who may see a table's record reads: no state, no log."""

    status: str
    options: dict[str, Any]
    has_game: bool  # a seed and a state: the game was dealt


def table_access(s: Session, table_id: str) -> TableAccess | None:
    row = s.execute(
        select(
            GameTable.status,
            GameTable.options,
            GameTable.seed.is_not(None),
            GameTable.state.is_not(None),
        ).where(GameTable.id == table_id)
    ).first()
    if row is None:
        return None
    status, options, has_seed, has_state = row
    return TableAccess(status, dict(options or {}), bool(has_seed) and bool(has_state))


def imported_owner(s: Session, replay_id: str) -> str | None:
    """The importer of an imported replay (None: no such replay); the record is not read."""
    owner: str | None = s.scalar(
        select(ImportedReplay.owner_profile_id).where(ImportedReplay.id == replay_id)
    )
    return owner


def seat_holders(s: Session, table_id: str) -> list[str]:
    """The profiles that hold a seat at the table (a seat handed to a bot keeps its person)."""
    rows = s.scalars(
        select(Seat.profile_id).where(Seat.table_id == table_id, Seat.profile_id.is_not(None))
    )
    return [p for p in rows if p is not None]


def players(s: Session, table_id: str) -> list[RecordPlayerDoc]:
    """Seat, the person's name (null for a bot of its own) and the bot level of every seat."""
    rows = s.execute(
        select(Seat.seat, Profile.name, Seat.bot_level)
        .outerjoin(Profile, Profile.id == Seat.profile_id)
        .where(Seat.table_id == table_id)
        .order_by(Seat.seat)
    ).all()
    return [{"seat": seat, "name": name, "bot_level": level} for seat, name, level in rows]


class LoggedMove(NamedTuple):
    version: int
    seat: int
    move: rules.EncodedMove
    at: datetime
    events: list[rules.EngineEvent]  # as the engine made them


def moves(s: Session, table_id: str, upto: int) -> list[LoggedMove]:
    """The table's moves up to ``upto`` as they were made, in order (taken back ones too)."""
    rows = s.execute(
        select(
            MoveRecord.version,
            MoveRecord.seat,
            MoveRecord.move,
            MoveRecord.created_at,
            MoveRecord.events,
        )
        .where(MoveRecord.table_id == table_id, MoveRecord.version <= upto)
        .order_by(MoveRecord.version)
    ).all()
    return [LoggedMove(*r) for r in rows]


def standing_moves(s: Session, table_id: str, upto: int) -> list[LoggedMove]:
    """The table's moves up to ``upto`` that stand: what an ``undo`` took back, and the undo
    itself, left out (app/records/canonical.py). A record holds exactly these."""
    logged = moves(s, table_id, upto)
    return [logged[i] for i in standing_indexes((m.move, m.events) for m in logged)]


def set_public_replay(s: Session, t: GameTable, public: bool) -> None:
    """The table's options with ``public_replay`` set (a new dict: the JSON column sees it)."""
    t.options = {**t.options, "public_replay": public}


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
