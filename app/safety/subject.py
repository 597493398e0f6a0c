"""Who a person at a table points at: the writer of one of the table's chat messages, or the
person at one of its seats — as they stand now, with the message as it was written.

Read in the caller's transaction, after the caller's right to look at the table was judged
(app/tables ``viewer``). A message of another table, a seat nobody (or only a bot) holds, or a
profile since deleted is nobody: ``404``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.chat import published as chat
from app.db.models import Profile
from app.errors import NotFound
from app.tables import published


@dataclass(frozen=True)
class Pointed:
    profile_id: str
    name: str  # the message's name as written, else the person's name now
    message_id: int | None = None
    text: str | None = None
    written_at: datetime | None = None


def of_message(s: Session, table_id: str, message_id: int) -> Pointed:
    m = chat.message(s, table_id, message_id)
    if m is None or not _alive(s, m.profile_id):
        raise NotFound("no such message")
    return Pointed(m.profile_id, m.name, m.id, m.text, m.created_at)


def of_seat(s: Session, table_id: str, seat: int) -> Pointed:
    person = published.person_at(s, table_id, seat)
    if person is None:
        raise NotFound("no person sits at this seat")
    return Pointed(*person)


def pointed(s: Session, table_id: str, message_id: int | None, seat: int | None) -> Pointed:
    """The person a subject names (exactly one of ``message_id`` and ``seat``)."""
    if message_id is not None:
        return of_message(s, table_id, message_id)
    assert seat is not None
    return of_seat(s, table_id, seat)


def _alive(s: Session, profile_id: str) -> bool:
    deleted = s.execute(select(Profile.deleted_at).where(Profile.id == profile_id)).first()
    return deleted is not None and deleted[0] is None
