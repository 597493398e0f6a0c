"""The small value types the table modules pass around."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Protocol

from app.isotime import iso
from app.tables.schemas import GameSeat
from app.tables.status import TableStatus


class TableLike(Protocol):
    """What a lobby shows of a table: its ORM row, or the row the lobby's read selects
    (``repository.LOBBY_TABLE``)."""

    @property
    def id(self) -> str: ...
    @property
    def invite_code(self) -> str: ...
    @property
    def host_profile_id(self) -> str: ...
    @property
    def seat_count(self) -> int: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def status(self) -> TableStatus: ...
    @property
    def state(self) -> dict[str, Any] | None: ...
    @property
    def version(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def clock(self) -> dict[str, Any] | None: ...
    @property
    def name(self) -> str | None: ...
    @property
    def rematch_id(self) -> str | None: ...


class SeatLike(Protocol):
    """A seat as a lobby shows it: its ORM row, or a row of ``repository.LOBBY_SEATS``."""

    @property
    def seat(self) -> int: ...
    @property
    def profile_id(self) -> str | None: ...
    @property
    def bot_level(self) -> str | None: ...


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a table: a seat, or a spectator (seat None)."""

    table_id: str
    seat: int | None
    profile_id: str | None
    bot: bool = False  # a server-side bot playing the seat (see ``seat_viewer``)


def seat_viewer(table_id: str, seat: int) -> Viewer:
    """A server-side actor (a bot) holding ``seat``: pass it to ``submit_move``."""
    return Viewer(table_id, seat, None, bot=True)


@dataclass(frozen=True)
class LogRow:
    """One move-log line as the hot path keeps it (the fields of ``MoveRecord`` a client sees)."""

    version: int
    seat: int
    move: dict[str, Any]
    events: list[Any]
    created_at: datetime

    @cached_property
    def at(self) -> str | None:
        """``created_at`` as the log lines write it, computed once for every seat's line."""
        return iso(self.created_at)


@dataclass(frozen=True)
class Fresh:
    """A table as this process last committed (or read) it, with the seats it was judged with
    and their ``seats_version``: a move from this memory is refused by the database if the
    seats changed since, on any instance."""

    version: int
    state: Any
    status: TableStatus
    entry: LogRow | None  # the move that led to ``version`` (None: a game with no move yet)
    seats: list[GameSeat]
    seats_version: int
    # The profile holding each seat at ``seats_version`` (server-side only: never rendered).
    holders: dict[int, str | None] = field(default_factory=dict)
    # The log lines just before ``entry``, oldest first, of consecutive versions (at most
    # LINES_KEPT - 1): a socket a few moves behind is caught up from memory as well.
    earlier: tuple[LogRow, ...] = ()

    def lines_after(self, since: int) -> list[LogRow] | None:
        """The log lines after version ``since`` up to this one; None unless all are here."""
        behind = self.version - since
        if self.entry is None or behind < 1 or behind > len(self.earlier) + 1:
            return None
        return [*self.earlier[len(self.earlier) - behind + 1 :], self.entry]

    def lines_to_keep(self) -> tuple[LogRow, ...]:
        """``earlier`` of the version that follows this one."""
        if self.entry is None:
            return ()
        return (*self.earlier, self.entry)[-(LINES_KEPT - 1) :]


# Log lines a table's memory holds (``Fresh``), the newest included.
LINES_KEPT = 8
