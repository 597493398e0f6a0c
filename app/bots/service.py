"""Bot seats: put a bot in a seat, hand a seat to a bot, remove a bot, take a seat back.

- Before the start, the host puts a bot in an empty seat (or changes a bot's level), and may
  free a bot's seat again.
- In a running game the seat's own player may hand it to a bot at any time (leaving), and the
  host may once the player has not moved for the table's ``idle_seconds`` (at least 60, 120 by
  default) while it was their turn. The idle time is read from an injected clock.
- The seat's player takes it back (reclaim).

Every change reads the table first with the seats' lock (app/tables/lobby.py: seats are judged
in the database) and advances the table's ``seats_version`` in its own transaction, so the very
next move on any instance is judged with the new seats; a lobby notice follows the commit.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeAlias

from anyio import to_thread
from sqlalchemy.orm import Session

from app import rules
from app.clock import Clock, SystemClock
from app.db.session import Database
from app.errors import AppError, NotFound, NotHost, NotYourSeat, WrongStatus
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import published
from app.tables.answers import LobbyAnswer
from app.tables.locks import KeyedLocks
from app.tables.options import TableOptionsDoc, options_of
from app.tables.schemas import IDLE_SECONDS_DEFAULT, IDLE_SECONDS_MIN
from app.tables.status import TableStatus
from app.tables.visibility import lobby_of, visible

if TYPE_CHECKING:
    from app.db.models import GameTable, Seat


class SeatTaken(AppError):
    status = 409
    code = "seat_taken"


class SeatActive(AppError):
    status = 409
    code = "seat_active"


class NotABot(AppError):
    status = 409
    code = "not_a_bot"


class TooManyBotTables(AppError):
    """Handing over this seat would leave one more game to bots alone than a profile may have."""

    status = 409
    code = "too_many_bot_tables"


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def idle_limit(options: TableOptionsDoc | None) -> int:
    """The table's idle time in seconds, never under the floor (older tables may hold less)."""
    asked = (options or {}).get("idle_seconds", IDLE_SECONDS_DEFAULT)
    return max(IDLE_SECONDS_MIN, int(asked))


def is_idle(t: GameTable, seat: int, now: datetime) -> bool:
    """The seat is to act and nothing has happened at the table for its idle time."""
    if t.state is None:
        return False
    if seat not in rules.to_act(rules.decode_state(t.state)):
        return False
    return (now - _aware(t.updated_at)).total_seconds() >= idle_limit(options_of(t))


def _seat_row(t: GameTable, seats: list[Seat], seat: int) -> Seat | None:
    if not 0 <= seat < t.seat_count:
        raise NotFound(f"no seat {seat} at this table")
    return next((x for x in seats if x.seat == seat), None)


# Hears a reclaim in its transaction (the table, its seats, the seat): pace restarts the clock.
ReclaimHook: TypeAlias = "Callable[[GameTable, list[Seat], int], None]"


class BotSeats:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        locks: KeyedLocks,
        clock: Clock | None = None,
        unattended_per_profile: int = 2,
    ) -> None:
        self.db = db
        self.hub = hub
        self.locks = locks
        self.clock: Clock = clock or SystemClock()
        self.reclaim_hooks: list[ReclaimHook] = []
        # Running games where bots play every seat, per profile (sitting there or hosting): a
        # hand-over that would make one more is refused (docs/bots.md, "Games bots play alone").
        self.unattended_per_profile = unattended_per_profile

    async def put(self, profile_id: str, table_id: str, seat: int, level: str) -> LobbyAnswer:
        async with self.locks[table_id]:
            now = self.clock.utcnow()
            out = await to_thread.run_sync(self._put, profile_id, table_id, seat, level, now)
        self.hub.publish(Notice(table_id, NoticeKind.LOBBY))
        return out

    async def remove(self, profile_id: str, table_id: str, seat: int) -> LobbyAnswer:
        async with self.locks[table_id]:
            out = await to_thread.run_sync(self._remove, profile_id, table_id, seat)
        self.hub.publish(Notice(table_id, NoticeKind.LOBBY))
        return out

    async def reclaim(self, profile_id: str, table_id: str, seat: int) -> LobbyAnswer:
        async with self.locks[table_id]:
            out = await to_thread.run_sync(self._reclaim, profile_id, table_id, seat)
        self.hub.publish(Notice(table_id, NoticeKind.LOBBY))
        return out

    def _put(
        self, profile_id: str, table_id: str, seat: int, level: str, now: datetime
    ) -> LobbyAnswer:
        with self.db.session() as s:
            t, seats = visible(s, profile_id, table_id, None, for_change=True)
            row = _seat_row(t, seats, seat)
            is_host = t.host_profile_id == profile_id
            if t.status == TableStatus.LOBBY:
                if not is_host:
                    raise NotHost("only the host seats bots before the start")
                if row is None:
                    published.add_bot_seat(s, t.id, seat, level)
                elif row.profile_id is not None:
                    raise SeatTaken("a player sits in this seat")
                else:
                    published.set_bot(row, level)
            elif t.status == TableStatus.PLAYING:
                if row is None:  # pragma: no cover - a started table has every seat
                    raise NotFound(f"no seat {seat} at this table")
                own = row.profile_id is not None and row.profile_id == profile_id
                if not own:
                    if not is_host:
                        raise NotHost("only the host or the seat's player can hand a seat to a bot")
                    if row.bot_level is None and not is_idle(t, seat, now):
                        raise SeatActive(
                            "the player is still playing: a seat is handed over when its player "
                            "leaves it, or has not moved for the table's idle time"
                        )
                if row.bot_level is None and all(x.bot_level for x in seats if x is not row):
                    self._may_leave_to_bots(s, profile_id, t.id)
                published.set_bot(row, level)
            else:
                raise WrongStatus("the game is over")
            return self._changed(s, t, profile_id)

    def _may_leave_to_bots(self, s: Session, profile_id: str, table_id: str) -> None:
        """This hand-over leaves the game to bots alone: refused past the profile's allowance.
        The profile's row lock (or SQLite's write lock) makes two hand-overs at once count in
        turn."""
        published.lock_profile(s, profile_id)
        if published.unattended_tables(s, profile_id, other_than=table_id) >= (
            self.unattended_per_profile
        ):
            limit = self.unattended_per_profile
            raise TooManyBotTables(
                f"at most {limit} games of yours may be played by bots alone: take a seat "
                "back at one of them first",
                limit=limit,
            )

    def _remove(self, profile_id: str, table_id: str, seat: int) -> LobbyAnswer:
        with self.db.session() as s:
            t, seats = visible(s, profile_id, table_id, None, for_change=True)
            row = _seat_row(t, seats, seat)
            if t.host_profile_id != profile_id:
                raise NotHost("only the host removes bots")
            if t.status != TableStatus.LOBBY:
                raise WrongStatus("bots leave only before the start; in play a player can reclaim")
            if row is None or row.profile_id is not None or row.bot_level is None:
                raise NotABot("no bot sits in this seat")
            s.delete(row)
            return self._changed(s, t, profile_id)

    def _reclaim(self, profile_id: str, table_id: str, seat: int) -> LobbyAnswer:
        with self.db.session() as s:
            t, seats = visible(s, profile_id, table_id, None, for_change=True)
            row = _seat_row(t, seats, seat)
            if row is None or row.profile_id != profile_id:
                raise NotYourSeat("only the seat's own player can reclaim it")
            if row.bot_level is None:
                raise NotABot("no bot plays this seat")
            if t.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
                raise WrongStatus("the game is over")
            published.set_bot(row, None)
            for hook in self.reclaim_hooks:
                hook(t, seats, seat)
            return self._changed(s, t, profile_id)

    @staticmethod
    def _changed(s: Session, t: GameTable, profile_id: str) -> LobbyAnswer:
        """Write the seat change with the table's next ``seats_version``; the lobby after it."""
        s.flush()
        published.bump_seats(s, t.id)
        return lobby_of(s, t, published.seats(s, t.id), profile_id)
