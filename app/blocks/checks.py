"""Who is hidden from whom: the published checks other features make in their own transaction
(invitations, "people I play with", the chat). A block is one-way in what it hides (the blocker
no longer reads the blocked person's chat) and two-way in what it keeps apart (neither finds
the other among the people they play with, neither invites the other)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Connection, Select, exists, or_, select
from sqlalchemy.orm import QueryableAttribute, Session

from app.db.models import PersonBlock


def blocked(s: Session | Connection, profile_id: str, other_id: str) -> bool:
    """``profile_id`` blocked ``other_id``."""
    found = s.execute(
        select(PersonBlock.blocked_id).where(
            PersonBlock.profile_id == profile_id, PersonBlock.blocked_id == other_id
        )
    ).first()
    return found is not None


def apart(s: Session | Connection, a: str, b: str) -> bool:
    """One of the two blocked the other."""
    return blocked(s, a, b) or blocked(s, b, a)


Column = ColumnElement[Any] | QueryableAttribute[Any]


def hidden_from(viewer: Column | str) -> Select[str]:
    """The people whose words ``viewer`` (a profile id, or a column or bound parameter naming
    one) does not read: those it blocked. For ``column.not_in(...)`` in the reader's query."""
    return select(PersonBlock.blocked_id).where(PersonBlock.profile_id == viewer)


def kept_apart(me: Column | str, other: Column) -> ColumnElement[bool]:
    """A condition for a query over people (``other``, a profile id column): true where ``me``
    blocked them or they blocked ``me``."""
    return or_(
        exists().where(PersonBlock.profile_id == me, PersonBlock.blocked_id == other),
        exists().where(PersonBlock.profile_id == other, PersonBlock.blocked_id == me),
    )
