"""All SQL of presence: rows per (table, profile, instance) with an expiry, and last-seen times."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict

from sqlalchemy import Connection, Table, bindparam, delete, null, select, union_all, update
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


PRESENCE: Table = Presence.__table__  # type: ignore[assignment]
SEEN: Table = SeenAt.__table__  # type: ignore[assignment]
SEATS: Table = Seat.__table__  # type: ignore[assignment]


def _upserts(insert: Any) -> tuple[Any, Any]:
    """The two writes of a socket's coming and going, built once per dialect: hold (insert or
    extend the instance's row) and seen (the later of the stored and the given time)."""
    row = insert(PRESENCE).values(
        table_id=bindparam("p_table"),
        profile_id=bindparam("p_profile"),
        instance=bindparam("p_instance"),
        expires_at=bindparam("p_at"),
    )
    hold = row.on_conflict_do_update(
        index_elements=[PRESENCE.c.table_id, PRESENCE.c.profile_id, PRESENCE.c.instance],
        set_={"expires_at": row.excluded.expires_at},
    )
    at = insert(SEEN).values(
        table_id=bindparam("p_table"),
        profile_id=bindparam("p_profile"),
        last_seen_at=bindparam("p_at"),
    )
    seen = at.on_conflict_do_update(
        index_elements=[SEEN.c.table_id, SEEN.c.profile_id],
        set_={"last_seen_at": at.excluded.last_seen_at},
        where=SEEN.c.last_seen_at < at.excluded.last_seen_at,
    )
    return hold, seen


UPSERTS = {"postgresql": _upserts(pg_insert), "sqlite": _upserts(sqlite_insert)}
DROP = delete(PRESENCE).where(
    PRESENCE.c.table_id == bindparam("p_table"),
    PRESENCE.c.profile_id == bindparam("p_profile"),
    PRESENCE.c.instance == bindparam("p_instance"),
)


def _dialect(s: Session | Connection) -> str:
    return s.dialect.name if isinstance(s, Connection) else s.get_bind().dialect.name


def hold(
    s: Session | Connection, table_id: str, profile_id: str, instance: str, expires: datetime
) -> None:
    """This instance holds a socket of the person: insert or extend its row, in one statement
    (a socket opening while the refresh re-inserts the same row must not break the key)."""
    params = {"p_table": table_id, "p_profile": profile_id, "p_instance": instance}
    s.execute(UPSERTS[_dialect(s)][0], {**params, "p_at": expires})


def release(
    s: Session | Connection, table_id: str, profile_id: str, instance: str, now: datetime
) -> None:
    """The instance's last socket of the person closed: drop its row, note the time."""
    s.execute(DROP, {"p_table": table_id, "p_profile": profile_id, "p_instance": instance})
    seen(s, table_id, profile_id, now)


def seen(s: Session | Connection, table_id: str, profile_id: str, moment: datetime) -> None:
    """The person was last seen at the table at ``moment``, unless a later time is stored."""
    params = {"p_table": table_id, "p_profile": profile_id, "p_at": moment}
    s.execute(UPSERTS[_dialect(s)][1], params)


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


# Who is at a table, in one statement built once: the last-seen times, and the rows (no time).
# The typed select comes first: the union's column takes its type (SQLite's times are read back
# as times).
WHO = union_all(
    select(SEEN.c.profile_id, SEEN.c.last_seen_at).where(SEEN.c.table_id == bindparam("p_id")),
    select(PRESENCE.c.profile_id, null()).where(PRESENCE.c.table_id == bindparam("p_id")),
)
HELD = (
    select(SEATS.c.seat, SEATS.c.profile_id)
    .where(SEATS.c.table_id == bindparam("p_id"), SEATS.c.profile_id.is_not(None))
    .order_by(SEATS.c.seat)
)


def of_table(s: Session | Connection, table_id: str) -> dict[str, SeatPresence]:
    """Per profile with a row or a last-seen time at the table: present now, last seen.

    A row counts until a sweep removes it (``expire``, run by every instance on the injected
    clock), so what is present does not depend on which process's clock reads it."""
    rows: Sequence[Any] = s.execute(WHO, {"p_id": table_id}).all()
    live = {pid for pid, at in rows if at is None}
    last = {pid: _aware(at) for pid, at in rows if at is not None}
    return {
        pid: SeatPresence(pid in live, None if pid in live else last.get(pid))
        for pid in live | set(last)
    }


class SeatPresenceLine(TypedDict):
    """One seat a person holds, in the ``presence`` frame: present, or last seen when away."""

    seat: int
    present: bool
    last_seen: str | None  # ISO 8601, UTC


def seat_list(
    s: Session | Connection, table_id: str, held: Iterable[tuple[int, str | None]] | None = None
) -> list[SeatPresenceLine]:
    """Every seat held by a person: present, and last seen (ISO, UTC) when away. ``held``: the
    table's (seat, profile) pairs when the caller has read them already."""
    who = of_table(s, table_id)
    if held is None:
        held = s.execute(HELD, {"p_id": table_id}).all()
    out: list[SeatPresenceLine] = []
    for seat, pid in sorted((seat, pid) for seat, pid in held if pid is not None):
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
