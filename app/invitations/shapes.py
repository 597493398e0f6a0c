"""Rows the invitations' repository reads, before the service words them for a response."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from app.invitations.schemas import InvitationKind
from app.tables.status import TableStatus


class PersonRow(TypedDict):
    """Someone the caller sat at a table with (``Person`` once ``last_played`` is ISO text)."""

    id: str
    name: str
    tables: int
    last_played: datetime | None


class BlockRow(TypedDict):
    """Someone the caller takes no invitations from (``BlockedPerson`` once worded)."""

    id: str
    name: str
    since: datetime | None


class PendingRow(TypedDict):
    """An invitation waiting for the caller's answer (``MyInvitation`` once worded)."""

    id: int
    kind: InvitationKind
    table_id: str
    table_name: str | None
    table_status: TableStatus
    host_name: str | None
    inviter_name: str | None
    seat: int | None
    seat_count: int
    names: list[str | None]
    pace: dict[str, object]
    rematch_of: str | None
    created_at: datetime | None
