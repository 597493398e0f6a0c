"""Play: a move judged and handed to the move store (what a seat receives after it is
app/tables/feed.py).

A move is: the table at the version the move expects (as this process committed or read it last,
app/tables/cache.py, else read from the database) -> judged here, on the event loop -> written by
the move store (app/tables/store.py: the conditional update and the log row, committed; one path
per database) -> only after the commit is it published to the hub (which waits on nothing). The
conditional update lets exactly one move follow each version, and only with the seats the move
was judged with: ``seats_version`` advances with every seat change on any instance, so a seat
handed to a bot binds the very next move everywhere, with no notice needed. A refusal judged
from this process's memory is checked against the database first (a read): the table may have
moved on, or its seats changed (then the move is judged again from a fresh read).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from anyio import to_thread
from sqlalchemy import Connection

from app import rules
from app.db.session import Database
from app.errors import (
    AppError,
    BotPlaysSeat,
    IllegalMove,
    Malformed,
    NoBotSeat,
    NotFound,
    NotYourSeat,
    StaleVersion,
    WrongStatus,
)
from app.pace import clock as pc
from app.pace.book import UNKNOWN, PaceBook
from app.realtime.hub import Hub, Notice, NoticeKind
from app.realtime.notify import CHANNEL
from app.tables import repository as repo
from app.tables.answers import MoveAnswer
from app.tables.cache import TableCache
from app.tables.locks import KeyedLocks
from app.tables.schemas import GameSeat
from app.tables.status import TableStatus
from app.tables.store import (
    FinishHook,
    MoveConflict,
    MoveStore,
    MoveWrite,
    move_store,
    move_written,
)
from app.tables.types import Fresh, LogRow, Viewer
from app.tally import MoveTally

__all__ = ["FinishHook", "Play", "move_written"]

# Attempts of one move when the seats changed under it (each one re-reads them).
SEAT_ATTEMPTS = 3


class Prior(Exception):
    """Carries the earlier result of a move_id out of a read."""

    def __init__(self, result: MoveAnswer) -> None:
        super().__init__("duplicate move_id")
        self.result = result


class SeatsChanged(Exception):
    """The seats changed since the move read them: the move is judged again from the database."""


@dataclass(frozen=True, slots=True)
class Asked:
    """A move as it was asked for: by the seat, at the table's version ``expected``, under its
    ``move_id``; by a server-side ``bot`` (for a seat a bot holds), else by the person
    ``profile_id`` (who must hold the seat)."""

    table_id: str
    seat: int
    move: dict[str, Any]
    expected: int
    move_id: str
    bot: bool
    profile_id: str | None


@dataclass(frozen=True, slots=True)
class Judged:
    """The table at the version a move expects, as the move is judged with it."""

    state: Any
    seats: list[GameSeat]
    holders: dict[int, str | None]
    seats_version: int
    clock: pc.ClockBlob | None  # the pace clock at that version
    kept: tuple[LogRow, ...]  # the log lines this process keeps before the move (``Fresh``)


def prior_result(conn: Connection, table_id: str, move_id: str, seat: int) -> MoveAnswer | None:
    r = repo.prior(conn, table_id, seat, move_id)
    if r is None:
        return None
    return {
        "version": r.version,
        "move_id": move_id,
        "events": rules.events_for(r.events, seat),
        "duplicate": True,
    }


def refuse(conn: Connection, row: Any, table_id: str, move_id: str, seat: int) -> None:
    """The table (``row``: its status and version) is not where the move expected it: the earlier
    result of this very move_id, as ``Prior`` (the retry of a move that landed, perhaps the one
    that ended the game), or the typed error that says where the table is."""
    found = prior_result(conn, table_id, move_id, seat)
    if found is not None:
        raise Prior(found)
    if row.status != TableStatus.PLAYING:
        raise WrongStatus("the game is not in play", status=row.status, version=row.version)
    raise StaleVersion("the table has moved on", version=row.version)


def _answer(entry: LogRow, move_id: str, seat: int) -> MoveAnswer:
    return {
        "version": entry.version,
        "move_id": move_id,
        "events": rules.events_for(entry.events, seat),
        "duplicate": False,
    }


class Play:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        locks: KeyedLocks,
        cache: TableCache,
        pace: PaceBook | None = None,
        channel: str = CHANNEL,
    ) -> None:
        self.db = db
        self.hub = hub
        self.locks = locks
        self.cache = cache
        self.pace = pace or PaceBook()
        self.finish_hooks: list[FinishHook] = []
        self.tally = MoveTally()  # read by /metrics (app/metrics)
        # Where moves are written: one store per database (app/tables/store.py); ``channel``
        # is the one the other processes listen on (Postgres).
        self.store: MoveStore = move_store(db, self._finished, channel)

    def _finished(self, conn: Connection, table_id: str) -> None:
        """The finish hooks of a move that ended the game (run by the store)."""
        for hook in self.finish_hooks:
            hook(conn, table_id)

    # ------------------------------------------------------------------ move
    async def submit_move(
        self,
        viewer: Viewer,
        move: Any,
        expected_version: int,
        move_id: str,
        on_commit: Callable[[MoveAnswer], Awaitable[None]] | None = None,
    ) -> MoveAnswer:
        """Apply one move for the viewer's seat. The single entry point for HTTP, WS and bots.

        ``on_commit`` (optional) hears the result after the commit and before the broadcast: the
        socket uses it so that the mover's ``accepted`` frame precedes the ``update``.
        """
        began = time.perf_counter()
        try:
            out = await self._submit(viewer, move, expected_version, move_id, on_commit)
        except AppError as exc:
            self.tally.refuse(exc.code)
            raise
        self.tally.accept(time.perf_counter() - began, out["duplicate"])
        return out

    async def _submit(
        self,
        viewer: Viewer,
        move: Any,
        expected_version: int,
        move_id: str,
        on_commit: Callable[[MoveAnswer], Awaitable[None]] | None,
    ) -> MoveAnswer:
        if viewer.seat is None:
            raise NotYourSeat("you do not hold a seat at this table")
        if not isinstance(move, dict):
            raise Malformed("move must be an object")
        asked = Asked(
            viewer.table_id,
            viewer.seat,
            move,
            expected_version,
            move_id,
            viewer.bot,
            viewer.profile_id,
        )
        async with self.locks[viewer.table_id]:
            out, notice = await self._play(asked)
        if on_commit is not None:
            await on_commit(out)
        # Also on a duplicate: the first attempt may have committed without being announced.
        self.hub.publish(notice)
        return out

    def submit_sync(
        self,
        table_id: str,
        seat: int,
        move: dict[str, Any],
        expected: int,
        move_id: str,
        bot: bool = False,
        profile_id: str | None = None,
    ) -> tuple[MoveAnswer, bool]:
        """The move from a thread without an event loop (scripts, tests): the same path on an
        event loop of its own, without this process's table lock (the conditional update
        holds) and without a notice. (result, True) when committed now, (earlier result,
        False) for a move_id this seat has played already."""
        asked = Asked(table_id, seat, move, expected, move_id, bot, profile_id)
        out, _notice = asyncio.run(self._play(asked))
        return out, not out["duplicate"]

    async def _play(self, asked: Asked) -> tuple[MoveAnswer, Notice]:
        """The move's result and the notice to publish. A person's move (``bot`` False) is
        played only if ``profile_id`` holds ``seat`` in the seats the move is judged with; a
        ``bot`` only for a seat a bot holds."""
        for _ in range(SEAT_ATTEMPTS + 1):
            try:
                return await self._attempt(asked)
            except Prior as found:
                version = found.result["version"]
                return found.result, Notice(asked.table_id, NoticeKind.GAME, version)
            except SeatsChanged:
                self.cache.forget(asked.table_id)  # the next attempt reads the seats
        raise StaleVersion("the seats changed; try again", version=asked.expected)

    async def _attempt(self, asked: Asked) -> tuple[MoveAnswer, Notice]:
        """One judgement and write of the move, from the table at ``expected``: this process's
        memory of it when it has one (a table's state at a version never changes, and the
        conditional update checks both the version and the seats the move was judged with),
        else a read. A ``move_id`` seen before (for this seat) is caught by the log's unique
        key: the store writes nothing, and the earlier result is read."""
        table_id, seat, move, expected = asked.table_id, asked.seat, asked.move, asked.expected
        move_id, bot, profile_id = asked.move_id, asked.bot, asked.profile_id
        epoch = self.cache.epoch
        table = self._known(table_id, expected)
        if table is None:
            table = await to_thread.run_sync(self._read, table_id, expected, move_id, seat)
        seen = table.seats_version
        bot_seat = any(x["seat"] == seat and x["bot_level"] for x in table.seats)
        if bot_seat != bot:
            await self._check(table_id, expected, seen, move_id, seat)
            if bot_seat:
                raise BotPlaysSeat("a bot plays this seat: take it back first", version=expected)
            # The bot thought while its seat was taken back.
            raise NoBotSeat("no bot plays this seat any more", version=expected)
        if not bot and (profile_id is None or table.holders.get(seat) != profile_id):
            await self._check(table_id, expected, seen, move_id, seat)
            raise NotYourSeat("you do not hold this seat now", version=expected)
        try:
            tr = rules.apply_move(table.state, seat, move)
        except rules.IllegalMoveError as exc:
            # Judged against version ``expected``: make sure that is still the table's.
            await self._check(table_id, expected, seen, move_id, seat)
            raise IllegalMove(
                str(getattr(exc, "message", exc)),
                engine_code=getattr(exc, "code", "illegal"),
                version=expected,
            ) from exc
        finished = rules.outcome(tr.state) is not None
        status = TableStatus.FINISHED if finished else TableStatus.PLAYING
        clock, deadline = self.pace.after_move(table.clock, tr.state, table.seats)
        params, row, entry = move_written(
            table_id, seat, move_id, expected, seen, tr, clock, deadline, status
        )
        try:
            notice = await self._store(MoveWrite(params, row, finished))
        except MoveConflict:
            # Lost a race (to a retry of this very move, or another), or the seats moved.
            await self._check(table_id, expected, seen, move_id, seat, conflict=True)
            raise StaleVersion("the table has moved on", version=expected) from None
        after = Fresh(
            entry.version, tr.state, status, entry, table.seats, seen, table.holders, table.kept
        )
        self.cache.remember(table_id, after, epoch)
        self.pace.remember(table_id, entry.version, seen, clock)
        return _answer(entry, move_id, seat), notice

    def _known(self, table_id: str, expected: int) -> Judged | None:
        """The table at ``expected`` from this process's memory (its clock too), if it has it."""
        fresh = self.cache.get(table_id)
        if fresh is None or fresh.version != expected or fresh.status != TableStatus.PLAYING:
            return None
        clock = self.pace.known(table_id, expected, fresh.seats_version)
        if clock is UNKNOWN:
            return None  # the clock is not known here: the table is read
        return Judged(
            fresh.state,
            fresh.seats,
            fresh.holders,
            fresh.seats_version,
            cast(pc.ClockBlob | None, clock),
            fresh.lines_to_keep(),
        )

    def _read(self, table_id: str, expected: int, move_id: str, seat: int) -> Judged:
        """The table at ``expected`` read from the database (a worker thread); where it is
        instead, as ``refuse`` says."""
        with self.db.read() as conn:
            row = repo.snapshot(conn, table_id)
            if row is None:
                raise NotFound("no such table")
            if row.status != TableStatus.PLAYING or row.state is None or row.version != expected:
                refuse(conn, row, table_id, move_id, seat)
            seats, holders = repo.game_seats_and_holders(conn, table_id)
        return Judged(
            rules.decode_state(row.state), seats, holders, row.seats_version, row.clock, ()
        )

    async def _store(self, move: MoveWrite) -> Notice:
        """The store writes the move in a task of its own: a socket that closes meanwhile must
        not leave a move that committed unremembered (the next move here would start from the
        version before) nor unannounced."""
        table_id = move.table_id
        write = asyncio.ensure_future(self.store.store(move))
        try:
            return await asyncio.shield(write)
        except asyncio.CancelledError:
            self.cache.forget(table_id)

            def settled(task: asyncio.Future[Notice]) -> None:
                self.cache.forget(table_id)
                if not task.cancelled() and task.exception() is None:
                    self.hub.publish(task.result())

            write.add_done_callback(settled)
            raise
        except MoveConflict:
            raise
        except Exception:
            self.cache.forget(table_id)  # (whether it was written is not known)
            raise

    async def _check(
        self,
        table_id: str,
        expected: int,
        seen: int,
        move_id: str,
        seat: int,
        conflict: bool = False,
    ) -> None:
        await to_thread.run_sync(
            self._check_sync, table_id, expected, seen, move_id, seat, conflict
        )

    def _check_sync(
        self, table_id: str, expected: int, seen: int, move_id: str, seat: int, conflict: bool
    ) -> None:
        """Before a refusal judged from the seats and state at (``expected``, ``seen``): if the
        table is no longer there, say where it is (``refuse``) or judge again (the seats
        changed). After a ``conflict`` (the store wrote nothing), first the earlier result of
        this move_id, if the log has it."""
        with self.db.read() as conn:
            if conflict:
                found = prior_result(conn, table_id, move_id, seat)
                if found is not None:
                    raise Prior(found)
            row = repo.head(conn, table_id)
            if row is None:
                raise NotFound("no such table")
            if row.version != expected or row.status != TableStatus.PLAYING:
                refuse(conn, row, table_id, move_id, seat)
            if row.seats_version != seen:
                raise SeatsChanged()
