"""The contracts of My games (responses only; the routes take no body).

One shape each, as the service builds it and as the response declares it: ``TypedDict``s
(``typing_extensions``', which pydantic reads before Python 3.12), checked once on the way out.
The JSON of ``MyTablesOut`` without its ``etag`` is also what that ``etag`` is a digest of
(app/mygames/service.py).
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from app.tables.status import TableStatus

Group = Literal["your_turn", "playing", "lobby", "finished"]


class MyResult(TypedDict):
    place: int  # 1 = first; shared places share the number
    of: int
    score: int | None
    won: bool | None  # solo: beat Victoria


class MyTable(TypedDict):
    id: str
    group: Group
    status: TableStatus
    host_name: str | None
    names: list[str | None]
    seat_count: int
    my_seat: int
    # A bot plays my seat (handed over or timed out): reclaim it to play again.
    my_seat_bot: str | None
    my_turn: bool
    # When my time runs out (UTC), and the seconds left on my clock at ``clock_since``.
    my_deadline: str | None
    my_bank: float | None
    clock_since: str | None
    paused: bool
    pace: dict[str, object]
    version: int
    updated_at: str | None
    result: MyResult | None
    # The host's name for the table (null: none). Always given; optional in the contract.
    name: NotRequired[str | None]


class MyTablesOut(TypedDict):
    """My tables: my turn first (soonest deadline first), then others in play, lobbies, and
    finished games last. Open tables: the 200 most recently changed; finished ones: the 20 most
    recent, ``finished_next`` (a table id, None when that was all) continues them through
    ``GET /api/me/tables/finished?after=``. ``etag`` changes whenever anything here changes."""

    waiting: int
    etag: str
    tables: list[MyTable]
    finished_next: str | None


class MyFinishedOut(TypedDict):
    """A page of my finished tables (latest change first); ``next`` continues (None: the last)."""

    tables: list[MyTable]
    next: str | None
