"""The contracts of play-again: requests strict, responses allow-lists (a person's id is given
only for the people the caller already shares a table with; never an address or a token)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from fastapi import Path
from pydantic import BaseModel, Field

from app.strict import Strict
from app.tables.status import TableStatus

PROFILE_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
InvitationIdPath = Annotated[int, Path(ge=1, le=2**62, description="an invitation id")]


class InvitationStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"  # the host took it back


class InvitationKind(StrEnum):
    REMATCH = "rematch"
    INVITE = "invite"


class InviteIn(Strict):
    profile_id: str = Field(pattern=PROFILE_ID_PATTERN)


class Person(BaseModel):
    """Someone the caller has sat at a table with."""

    id: str
    name: str
    tables: int  # tables shared
    last_played: str | None


class PeopleOut(BaseModel):
    people: list[Person]


class TableInvitationOut(BaseModel):
    """An invitation to this table, as the table's seats and invitees see it."""

    id: int
    name: str
    inviter: str
    seat: int | None
    kind: InvitationKind
    status: InvitationStatus
    you: bool


class TableInvitationsOut(BaseModel):
    table_id: str
    invitations: list[TableInvitationOut]


class MyInvitation(BaseModel):
    """An invitation waiting for my answer (My games)."""

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
    created_at: str | None


class MyInvitationsOut(BaseModel):
    invitations: list[MyInvitation]


class RematchOut(BaseModel):
    """The rematch table (``created``: this call opened it; else another player had)."""

    table_id: str
    created: bool


class BlockedPerson(BaseModel):
    """Someone I take no invitations from (since when)."""

    id: str
    name: str
    since: str | None


class BlockedOut(BaseModel):
    blocked: list[BlockedPerson]


ProfileIdPath = Annotated[str, Path(pattern=PROFILE_ID_PATTERN, description="a profile id")]
