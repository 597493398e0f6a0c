"""My games' answers as the service builds them: the shapes of ``MyTablesOut`` and
``MyFinishedOut`` (app/mygames/schemas.py), which check them once on the way out. Their JSON,
in this key order, is also what the ``ETag`` of ``GET /api/me/tables`` is a digest of."""

from __future__ import annotations

from typing import TypedDict

from app.tables.status import TableStatus


class MyResultLine(TypedDict):
    place: int
    of: int
    score: int | None
    won: bool | None


class MyTableLine(TypedDict):
    id: str
    name: str | None
    group: str  # "your_turn" | "playing" | "lobby" | "finished"
    status: TableStatus
    host_name: str | None
    names: list[str | None]
    seat_count: int
    my_seat: int
    my_seat_bot: str | None
    my_turn: bool
    my_deadline: str | None
    my_bank: float | None
    clock_since: str | None
    paused: bool
    pace: dict[str, object]
    version: int
    updated_at: str | None
    result: MyResultLine | None


class MyTablesDoc(TypedDict):
    waiting: int
    tables: list[MyTableLine]
    finished_next: str | None
    etag: str


class MyFinishedDoc(TypedDict):
    tables: list[MyTableLine]
    next: str | None
