"""Vacation (the host pauses and resumes a turn-based table's clock) and the clock on reclaim.

Every clock change outside a move bumps the table's ``seats_version`` in its transaction, so a
move judged with the clock as it was is refused by the database and judged again (the same rule
as a seat change), on every instance; a lobby notice follows the commit.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import cast

from anyio import to_thread

from app.clock import Clock
from app.db.models import GameTable, Seat
from app.db.session import Database
from app.errors import AppError, NotHost, WrongStatus
from app.pace import clock as pc
from app.pace.events import PaceEventKind, add_event
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import lobby_repository as lobby_repo
from app.tables.answers import LobbyAnswer
from app.tables.locks import KeyedLocks
from app.tables.status import TableStatus
from app.tables.visibility import lobby_of, visible


class WrongPace(AppError):
    """The table's pace does not allow this (no clock, not turn-based, already paused...)."""

    status = 409
    code = "wrong_pace"


def _humans(seats: list[Seat]) -> set[int]:
    return {x.seat for x in seats if x.bot_level is None and x.profile_id}


class PaceService:
    def __init__(self, db: Database, hub: Hub, locks: KeyedLocks, clock: Clock) -> None:
        self.db = db
        self.hub = hub
        self.locks = locks
        self.clock = clock

    async def pause(self, profile_id: str, table_id: str) -> LobbyAnswer:
        return await self._vacation(profile_id, table_id, paused=True)

    async def resume(self, profile_id: str, table_id: str) -> LobbyAnswer:
        return await self._vacation(profile_id, table_id, paused=False)

    async def _vacation(self, profile_id: str, table_id: str, paused: bool) -> LobbyAnswer:
        async with self.locks[table_id]:
            now = self.clock.now()
            out = await to_thread.run_sync(self._set_paused, profile_id, table_id, paused, now)
        self.hub.publish(Notice(table_id, NoticeKind.LOBBY))
        return out

    def _set_paused(self, profile_id: str, table_id: str, paused: bool, now: float) -> LobbyAnswer:
        with self.db.session() as s:
            t, seats = visible(s, profile_id, table_id, None)
            if t.host_profile_id != profile_id:
                raise NotHost("only the host pauses and resumes the clock")
            if t.status != TableStatus.PLAYING:
                raise WrongStatus("the game is not in play")
            blob = cast(pc.ClockBlob | None, t.clock)
            if blob is None or blob["mode"] != "turn":
                raise WrongPace("only a turn-based table's clock can be paused")
            if blob["paused"] == paused:
                raise WrongPace("the clock is paused already" if paused else "the clock runs")
            after = pc.pause(blob, now) if paused else pc.resume(blob, now)
            t.clock = dict(after)
            t.deadline = pc.table_deadline(after, _humans(seats))
            kind = PaceEventKind.CLOCK_PAUSED if paused else PaceEventKind.CLOCK_RESUMED
            # Who paused, by the name every seat sees (profile ids stay on the server).
            by = lobby_repo.names(s, [profile_id]).get(profile_id)
            add_event(s, t.id, kind, None, {"by": by}, datetime.fromtimestamp(now, UTC))
            s.flush()
            lobby_repo.bump_seats(s, t.id)
            return lobby_of(s, t, seats, profile_id)

    def on_reclaim(self, t: GameTable, seats: list[Seat], seat: int) -> None:
        """A reclaim hook of ``BotSeats`` (in its transaction): a seat whose time ran out starts
        again with a window; the table's deadline counts the person again."""
        blob = cast(pc.ClockBlob | None, t.clock)
        if blob is None or t.status != TableStatus.PLAYING:
            return
        after = pc.reclaimed(blob, seat, self.clock.now())
        t.clock = dict(after)
        t.deadline = pc.table_deadline(after, _humans(seats) | {seat})
