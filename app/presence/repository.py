"""All SQL of presence: rows per (table, profile, instance) with an expiry, and last-seen times."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from app.db.models import Presence, Seat, SeenAt


@dataclass(frozen=True)
class SeatPresence:
    present: bool
    last_seen: datetime | None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def hold(s: Session, table_id: str, profile_id: str, instance: str, expires: datetime) -> None:
    """This instance holds a socket of the person: insert or extend its row, in one statement
    (a socket opening while the refresh re-inserts the same row must not break the key)."""
    dialect = s.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    stmt = insert(Presence).values(
        table_id=table_id, profile_id=profile_id, instance=instance, expires_at=expires
    )
    s.execute(
        stmt.on_conflict_do_update(
            index_elements=[Presence.table_id, Presence.profile_id, Presence.instance],
            set_={"expires_at": stmt.excluded.expires_at},
        )
    )


def release(s: Session, table_id: str, profile_id: str, instance: str, now: datetime) -> None:
    """The instance's last socket of the person closed: drop its row, note the time."""
    s.execute(
        delete(Presence).where(
            Presence.table_id == table_id,
            Presence.profile_id == profile_id,
            Presence.instance == instance,
        )
    )
    seen(s, table_id, profile_id, now)


def seen(s: Session, table_id: str, profile_id: str, moment: datetime) -> None:
    row = s.get(SeenAt, (table_id, profile_id))
    if row is None:
        s.add(SeenAt(table_id=table_id, profile_id=profile_id, last_seen_at=moment))
    elif _aware(row.last_seen_at) < moment:
        row.last_seen_at = moment


def extend(s: Session, instance: str, expires: datetime) -> None:
    """Every row of this instance lives on until ``expires``."""
    s.execute(update(Presence).where(Presence.instance == instance).values(expires_at=expires))


def held(s: Session, instance: str) -> set[tuple[str, str]]:
    """The (table, profile) rows this instance has now (one read, however many sockets)."""
    rows = s.execute(
        select(Presence.table_id, Presence.profile_id).where(Presence.instance == instance)
    )
    return {(table_id, profile_id) for table_id, profile_id in rows}


def drop_instance(s: Session, instance: str, now: datetime) -> set[str]:
    """A clean shutdown: this instance's rows go (their people last seen now)."""
    rows = list(s.scalars(select(Presence).where(Presence.instance == instance)))
    for row in rows:
        seen(s, row.table_id, row.profile_id, now)
        s.delete(row)
    return {row.table_id for row in rows}


def expire(s: Session, now: datetime) -> set[str]:
    """Delete the rows that ran out (an instance that stopped refreshing); the tables touched."""
    rows = list(s.scalars(select(Presence).where(Presence.expires_at <= now)))
    for row in rows:
        seen(s, row.table_id, row.profile_id, _aware(row.expires_at))
        s.delete(row)
    return {row.table_id for row in rows}


def of_table(s: Session, table_id: str) -> dict[str, SeatPresence]:
    """Per profile with a row or a last-seen time at the table: present now, last seen.

    A row counts until a sweep removes it (``expire``, run by every instance on the injected
    clock), so what is present does not depend on which process's clock reads it."""
    live = set(s.scalars(select(Presence.profile_id).where(Presence.table_id == table_id)))
    seen_rows = s.execute(
        select(SeenAt.profile_id, SeenAt.last_seen_at).where(SeenAt.table_id == table_id)
    ).all()
    last = {pid: _aware(at) for pid, at in seen_rows}
    return {
        pid: SeatPresence(pid in live, None if pid in live else last.get(pid))
        for pid in live | set(last)
    }


def seat_list(s: Session, table_id: str) -> list[dict[str, Any]]:
    """Every seat held by a person: present, and last seen (ISO, UTC) when away."""
    who = of_table(s, table_id)
    rows = s.execute(
        select(Seat.seat, Seat.profile_id)
        .where(Seat.table_id == table_id, Seat.profile_id.is_not(None))
        .order_by(Seat.seat)
    ).all()
    out: list[dict[str, Any]] = []
    for seat, pid in rows:
        p = who.get(pid) if pid else None
        out.append(
            {
                "seat": seat,
                "present": bool(p and p.present),
                "last_seen": iso_of(p.last_seen if p else None),
            }
        )
    return out


def iso_of(moment: datetime | None) -> str | None:
    return None if moment is None else _aware(moment).isoformat()
