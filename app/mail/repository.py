"""All the SQL of e-mail: addresses, link tokens, the outbox, and the reads of tables and seats
the notifications need, through the tables' published functions (who sits where, whose turn it
is, the deadlines)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.db.models import EmailAddress, EmailOutbox, EmailToken, Profile
from app.tables import published

OUTBOX: Table = EmailOutbox.__table__  # type: ignore[assignment]


class OutboxStatus:
    PENDING = "pending"
    SENT = "sent"
    DROPPED = "dropped"


# ------------------------------------------------------------------------------ addresses
def address_of(s: Session, profile_id: str) -> EmailAddress | None:
    return s.get(EmailAddress, profile_id)


def owner_of(s: Session, address: str) -> EmailAddress | None:
    return s.scalar(select(EmailAddress).where(EmailAddress.address == address))


def profile_name(s: Session, profile_id: str) -> str | None:
    return s.scalar(select(Profile.name).where(Profile.id == profile_id))


def set_address(s: Session, profile_id: str, address: str, lang: str, at: datetime) -> None:
    """The profile's address is ``address`` from ``at`` (a change confirms the new address then:
    "sign out everywhere" removes an address added or changed since a time)."""
    row = s.get(EmailAddress, profile_id)
    if row is None:
        s.add(
            EmailAddress(
                profile_id=profile_id, address=address, lang=lang, notify=True, confirmed_at=at
            )
        )
    else:
        row.address, row.lang, row.notify, row.confirmed_at = address, lang, True, at
    s.flush()


def remove_address(s: Session, profile_id: str) -> bool:
    done = s.execute(delete(EmailAddress).where(EmailAddress.profile_id == profile_id))
    return int(done.rowcount) > 0  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------ tokens
def add_token(
    s: Session,
    digest: str,
    profile_id: str,
    purpose: str,
    address: str,
    lang: str,
    until: float,
    session_id: str | None = None,
) -> None:
    s.add(
        EmailToken(
            hash=digest,
            profile_id=profile_id,
            purpose=purpose,
            address=address,
            lang=lang,
            expires_at=until,
            used=False,
            session_id=session_id,
        )
    )


def spend_token(s: Session, digest: str, purpose: str, now: float) -> EmailToken | None:
    """The token, marked used, if it was unused, unexpired and for ``purpose``: exactly once."""
    done = s.execute(
        update(EmailToken)
        .where(
            EmailToken.hash == digest,
            EmailToken.purpose == purpose,
            EmailToken.used.is_(False),
            EmailToken.expires_at > now,
        )
        .values(used=True),
        execution_options={"synchronize_session": False},
    )
    if int(done.rowcount) != 1:  # type: ignore[attr-defined]
        return None
    return s.get(EmailToken, digest)


def pending_confirmation(s: Session, profile_id: str, now: float) -> str | None:
    """The address of the profile's latest confirmation link still open."""
    return s.scalar(
        select(EmailToken.address)
        .where(
            EmailToken.profile_id == profile_id,
            EmailToken.purpose == "confirm",
            EmailToken.used.is_(False),
            EmailToken.expires_at > now,
        )
        .order_by(EmailToken.expires_at.desc())
        .limit(1)
    )


def forget_tokens(s: Session, profile_id: str, purpose: str) -> None:
    s.execute(
        delete(EmailToken).where(EmailToken.profile_id == profile_id, EmailToken.purpose == purpose)
    )


def prune_tokens(s: Session, now: float) -> None:
    s.execute(delete(EmailToken).where(EmailToken.expires_at <= now))


# ------------------------------------------------------------------------------ tables
def listening_at(s: Session, table_id: str) -> bool:
    """Someone seated at the table wants e-mail notifications."""
    found = s.scalar(
        select(EmailAddress.profile_id)
        .where(
            EmailAddress.profile_id.in_(published.seated_ids(table_id)),
            EmailAddress.notify.is_(True),
        )
        .limit(1)
    )
    return found is not None


class MailSeat(NamedTuple):
    seat: int
    profile_id: str | None
    bot_level: str | None
    name: str | None
    address: str | None  # when notifications are wanted


def seats(s: Session, table_id: str) -> list[MailSeat]:
    """Every seat of the table, by seat, with the address of its person when they want
    notifications."""
    held = sorted(published.seat_holders(s, table_id), key=lambda x: x.seat)
    people = [x.profile_id for x in held if x.profile_id is not None]
    addresses: dict[str, str] = (
        {
            pid: address
            for pid, address in s.execute(
                select(EmailAddress.profile_id, EmailAddress.address).where(
                    EmailAddress.profile_id.in_(people), EmailAddress.notify.is_(True)
                )
            )
        }
        if people
        else {}
    )
    return [
        MailSeat(x.seat, x.profile_id, x.bot_level, x.name, addresses.get(x.profile_id or ""))
        for x in held
    ]


table = published.table
mover = published.mover_at
deadlines_before = published.deadlines_before


# ------------------------------------------------------------------------------ outbox
def enqueue(
    s: Session,
    profile_id: str,
    table_id: str | None,
    kind: str,
    dedupe: str,
    due: float,
    params: dict[str, Any],
) -> None:
    """One notification, unless one with the same ``dedupe`` key was queued (by any instance)."""
    values = {
        "profile_id": profile_id,
        "table_id": table_id,
        "kind": kind,
        "dedupe": dedupe,
        "params": params,
        "due_at": due,
        "status": OutboxStatus.PENDING,
    }
    dialect = s.get_bind().dialect.name
    if dialect == "postgresql":
        s.execute(postgresql.insert(OUTBOX).values(values).on_conflict_do_nothing())
    elif dialect == "sqlite":
        s.execute(sqlite.insert(OUTBOX).values(values).on_conflict_do_nothing())
    else:  # pragma: no cover - the two databases the server runs on
        if s.scalar(select(OUTBOX.c.id).where(OUTBOX.c.dedupe == dedupe)) is None:
            s.execute(insert(OUTBOX).values(values))


def due(s: Session, now: float, limit: int, lock: bool) -> list[EmailOutbox]:
    """Pending notifications due by ``now``; on Postgres locked, skipping rows another instance
    holds (``FOR UPDATE SKIP LOCKED``)."""
    q = (
        select(EmailOutbox)
        .where(EmailOutbox.status == OutboxStatus.PENDING, EmailOutbox.due_at <= now)
        .order_by(EmailOutbox.due_at, EmailOutbox.id)
        .limit(limit)
    )
    if lock:
        q = q.with_for_update(skip_locked=True)
    return list(s.scalars(q))


def close(s: Session, row_id: int, status: str, now: float) -> bool:
    """pending -> ``status``: False when another instance closed it first."""
    done = s.execute(
        update(EmailOutbox)
        .where(EmailOutbox.id == row_id, EmailOutbox.status == OutboxStatus.PENDING)
        .values(status=status, done_at=now),
        execution_options={"synchronize_session": False},
    )
    return int(done.rowcount) == 1  # type: ignore[attr-defined]


def told_since(s: Session, profile_id: str, table_id: str, kind: str, since: float) -> bool:
    """A ``kind`` message about the table went to the profile after ``since``."""
    n = s.scalar(
        select(func.count())
        .select_from(EmailOutbox)
        .where(
            EmailOutbox.profile_id == profile_id,
            EmailOutbox.table_id == table_id,
            EmailOutbox.kind == kind,
            EmailOutbox.status == OutboxStatus.SENT,
            EmailOutbox.done_at > since,
        )
    )
    return bool(n)


def prune_outbox(s: Session, before: float, limit: int = 500) -> None:
    old = select(EmailOutbox.id).where(
        EmailOutbox.status != OutboxStatus.PENDING, EmailOutbox.done_at < before
    )
    ids = list(s.scalars(old.limit(limit)))
    if ids:
        s.execute(delete(EmailOutbox).where(EmailOutbox.id.in_(ids)))
