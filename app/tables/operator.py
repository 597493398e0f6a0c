"""What an operator (python -m app.admin tables) and a profile's deletion do to tables, in the
caller's transaction: look tables up, close one, and take a person out of every table still open
(a lobby seat is left as its person leaves it; a running game's seat goes to a bot, as when its
player's time runs out). The caller publishes the notices this returns after its commit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import GameTable, Profile, Seat, utcnow
from app.errors import NotFound, WrongStatus
from app.isotime import aware
from app.tables import deadline_repository as deadline_repo
from app.tables import lobby_repository as lobby_repo
from app.tables.options import TableOptionsDoc, options_of
from app.tables.status import TableStatus

LIMIT = 50
# The bot that takes a running game's seat of a deleted profile (the idle hand-over's default).
HANDOVER_LEVEL = "greedy"


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    profile_id: str | None
    name: str | None  # the person's name (None: a bot's seat)
    bot_level: str | None


@dataclass(frozen=True)
class TableSummary:
    id: str
    name: str | None
    status: TableStatus
    host_profile_id: str
    host_name: str
    seat_count: int
    version: int
    created_at: datetime
    updated_at: datetime
    seats: list[SeatSummary]


@dataclass(frozen=True)
class Changed:
    """A table whose seats or status changed: ``version`` is its game's version when a bot
    must be woken (a running game), else None."""

    table_id: str
    version: int | None


def _aware(at: datetime) -> datetime:
    return aware(at)


def find(
    s: Session,
    *,
    table_id: str | None = None,
    host: str | None = None,
    status: TableStatus | None = None,
    limit: int = LIMIT,
) -> list[TableSummary]:
    """The tables matching every filter given (``host``: the host's profile id), newest
    first (at most ``limit``)."""
    q = select(GameTable, Profile.name).join(Profile, Profile.id == GameTable.host_profile_id)
    if table_id:
        q = q.where(GameTable.id == table_id)
    if host:
        q = q.where(GameTable.host_profile_id == host)
    if status is not None:
        q = q.where(GameTable.status == status)
    rows = s.execute(q.order_by(GameTable.created_at.desc(), GameTable.id).limit(limit)).all()
    ids = [t.id for t, _ in rows]
    seats: dict[str, list[SeatSummary]] = {i: [] for i in ids}
    if ids:
        for seat, name in s.execute(
            select(Seat, Profile.name)
            .outerjoin(Profile, Profile.id == Seat.profile_id)
            .where(Seat.table_id.in_(ids))
            .order_by(Seat.table_id, Seat.seat)
        ).all():
            seats[seat.table_id].append(
                SeatSummary(seat.seat, seat.profile_id, name, seat.bot_level)
            )
    return [
        TableSummary(
            t.id,
            t.name,
            TableStatus(t.status),
            t.host_profile_id,
            host_name,
            t.seat_count,
            t.version,
            _aware(t.created_at),
            _aware(t.updated_at),
            seats[t.id],
        )
        for t, host_name in rows
    ]


def close(s: Session, table_id: str) -> Changed:
    """Close a table in the lobby or in play (as when its host closes it: everybody is told,
    nobody can join or move any more). A finished or closed table: ``wrong_status``."""
    t = lobby_repo.table_for_change(s, table_id)
    if t is None:
        raise NotFound("no such table")
    if t.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
        raise WrongStatus(f"the table is {TableStatus(t.status).value}: nothing to close")
    t.status = TableStatus.CLOSED
    t.deadline = None
    t.updated_at = utcnow()
    s.flush()
    lobby_repo.bump_seats(s, t.id)
    return Changed(t.id, None)


def leave_everywhere(s: Session, profile_id: str) -> list[Changed]:
    """Take the person out of every table still open: a lobby seat is left (the host's role
    passes to the next person, or the table closes when nobody is left); a running game's seat
    is played by a bot from now on, so the others play on."""
    changed: list[Changed] = []
    rows = s.execute(
        select(GameTable.id, GameTable.status)
        .join(Seat, Seat.table_id == GameTable.id)
        .where(
            Seat.profile_id == profile_id,
            GameTable.status.in_([TableStatus.LOBBY, TableStatus.PLAYING]),
        )
        .order_by(GameTable.id)
    ).all()
    for table_id, status in rows:
        t = lobby_repo.table_for_change(s, table_id)
        if t is None:  # pragma: no cover - deleted meanwhile
            continue
        seats = lobby_repo.seats(s, t.id)
        mine = [x for x in seats if x.profile_id == profile_id]
        if TableStatus(status) == TableStatus.LOBBY:
            for x in mine:
                s.delete(x)
            humans = [x for x in seats if x.profile_id and x.profile_id != profile_id]
            if t.host_profile_id == profile_id:
                if humans:
                    t.host_profile_id = str(humans[0].profile_id)
                else:
                    t.status = TableStatus.CLOSED
            t.updated_at = utcnow()
            s.flush()
            lobby_repo.bump_seats(s, t.id)
            changed.append(Changed(t.id, None))
        else:
            level = _level(options_of(t))
            for x in mine:
                deadline_repo.hand_seat_to_bot(s, t.id, x.seat, level)
            humans = [x for x in seats if x.profile_id and x.profile_id != profile_id]
            if t.host_profile_id == profile_id and humans:
                t.host_profile_id = str(humans[0].profile_id)
            s.flush()
            lobby_repo.bump_seats(s, t.id)
            changed.append(Changed(t.id, t.version))
    return changed


def _level(options: TableOptionsDoc | None) -> str:
    return str((options or {}).get("timeout_bot_level", HANDOVER_LEVEL))
