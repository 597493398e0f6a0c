"""The "my data" file (GET /api/me/data) and the deletion request: typed contracts."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from app.tables.status import TableStatus

FORMAT = "emara-my-data"
FORMAT_VERSION = 1


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MyProfileOut(_Out):
    id: str
    name: str
    created_at: datetime
    guide: str | None
    suspended_at: datetime | None


class MyDeviceOut(_Out):
    device: str
    how: str
    created_at: datetime
    last_used_at: datetime
    signed_out_at: datetime | None


class MyEmailOut(_Out):
    address: str
    lang: str
    notify: bool
    confirmed_at: datetime


class MyPasskeyOut(_Out):
    name: str
    created_at: datetime
    last_used_at: datetime | None


class MyPushOut(_Out):
    """A browser that gets notifications (its push address is a secret of that browser)."""

    lang: str
    active: bool
    created_at: datetime


class MyGameOut(_Out):
    table_id: str
    name: str | None
    status: TableStatus
    seat: int
    players: list[str]
    created_at: datetime
    # The game record (docs/records.md) of a finished game; None while it is not finished
    # (an unfinished game's seed and hands are secrets of the game).
    record: dict[str, Any] | None


class MyChatOut(_Out):
    table_id: str
    seat: int | None
    text: str
    at: datetime


class MySoloOut(_Out):
    table_id: str
    mode: str
    building_start: int
    started_at: datetime
    finished_at: datetime | None
    cp: int | None
    bp: int | None
    score: int | None


class MyImportOut(_Out):
    id: str
    created_at: datetime
    record: dict[str, Any]


class MyBlockOut(_Out):
    """Someone I blocked (app/blocks), since when."""

    name: str
    since: datetime


class MyReportOut(_Out):
    """A report I made: where, of what, why, my words, where it stands. Not the reported words
    or name (another person's), nor the operator's note."""

    table_id: str | None
    kind: str
    reason: str
    note: str | None
    status: str
    created_at: datetime


class MyDataOut(_Out):
    format: Literal["emara-my-data"]
    format_version: Literal[1]
    exported_at: datetime
    profile: MyProfileOut
    devices: list[MyDeviceOut]
    email: MyEmailOut | None
    passkeys: list[MyPasskeyOut]
    push_subscriptions: list[MyPushOut]
    games: list[MyGameOut]
    chat_messages: list[MyChatOut]
    solo_results: list[MySoloOut]
    imported_records: list[MyImportOut]
    blocked_people: list[MyBlockOut] = []
    reports: list[MyReportOut] = []


class DeleteProfileIn(BaseModel):
    """``confirm`` must be true: the person confirmed they want the profile gone."""

    model_config = ConfigDict(extra="forbid")

    confirm: Literal[True]


class DeletedOut(_Out):
    id: str
    tables_left: int  # lobbies left and running games handed to a bot
