"""Play: the move transaction (what a seat receives after it is app/tables/feed.py).

A move is one Core transaction: (read the snapshot) -> judge -> conditional update -> log insert
-> commit; only after the commit is it published to the hub (which waits on nothing). The
conditional update lets exactly one move follow each version, and only with the seats the move
was judged with: ``seats_version`` advances with every seat change on any instance, so a seat
handed to a bot binds the very next move everywhere, with no notice needed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import psycopg
from anyio import to_thread
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from app import rules
from app.db.models import utcnow
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
from app.pace.book import UNKNOWN, PaceBook
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import repository as repo
from app.tables.answers import MoveAnswer
from app.tables.batch import batch_supported
from app.tables.cache import TableCache
from app.tables.locks import KeyedLocks
from app.tables.status import TableStatus
from app.tables.types import Fresh, LogRow, Viewer
from app.tables.writer import MoveWriter
from app.tally import MoveTally


class Illegal:
    """What the event loop's path answers for a move it judged illegal."""


ILLEGAL = Illegal()

# Attempts of one move when the seats changed under it (each one re-reads them).
SEAT_ATTEMPTS = 3

# Hears, inside the move's transaction, that the move ended the game (the solo record).
FinishHook = Callable[[Connection, str], None]


class Prior(Exception):
    """Carries the earlier result of a move_id out of the transaction (which then rolls back)."""

    def __init__(self, result: MoveAnswer) -> None:
        super().__init__("duplicate move_id")
        self.result = result


class SeatsChanged(Exception):
    """The seats changed since the move read them: the move is judged again from the database."""


class EndsGame(Exception):
    """The move ends the game: it is played again in a transaction, where the finish hooks
    write beside it (the one-statement path has no transaction to give them)."""


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


def move_written(
    table_id: str,
    seat: int,
    move_id: str,
    expected: int,
    seen: int,
    tr: rules.Transition,
    clock: Any,
    deadline: float | None,
    status: TableStatus = TableStatus.PLAYING,
) -> tuple[dict[str, Any], dict[str, Any], LogRow]:
    """What a move writes: the table's conditional update's parameters, the log row, and the
    log line as this process remembers it."""
    now = utcnow()
    new_version = expected + 1
    params = {
        "p_id": table_id,
        "p_expected": expected,
        "p_seats": seen,
        "p_state": rules.state_blob(tr.state),
        "p_version": new_version,
        "p_status": status,
        "p_at": now,
        "p_clock": clock,
        "p_deadline": deadline,
    }
    raw_events = list(tr.events)
    entry = LogRow(
        version=new_version,
        seat=seat,
        move=tr.move,
        events=raw_events,
        created_at=now,
    )
    row = {
        "table_id": table_id,
        "version": new_version,
        "seat": seat,
        "move": entry.move,
        "events": raw_events,
        "move_id": move_id,
        "created_at": now,
    }
    return params, row, entry


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
    ) -> None:
        self.db = db
        self.hub = hub
        self.locks = locks
        self.cache = cache
        self.pace = pace or PaceBook()
        self.finish_hooks: list[FinishHook] = []
        self.tally = MoveTally()  # read by /metrics (app/metrics)
        # SQLite: the moves judged on the event loop are written together (app/tables/writer.py;
        # an SQLite too old for its statements plays every move on the threaded path)
        self.writer = None if db.postgres or not batch_supported() else MoveWriter(db)

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
        async with self.locks[viewer.table_id]:
            relayed = False
            direct = await self._direct(viewer.seat, viewer, move, expected_version, move_id)
            if isinstance(direct, tuple):
                out, relayed = direct
            else:
                out, _fresh = await to_thread.run_sync(
                    self.submit_sync,
                    viewer.table_id,
                    viewer.seat,
                    move,
                    expected_version,
                    move_id,
                    viewer.bot,
                    viewer.profile_id,
                    direct is not ILLEGAL,  # first, unless judged illegal (see submit_sync)
                )
        if on_commit is not None:
            await on_commit(out)
        # Also on a duplicate: the first attempt may have committed without being announced.
        self.hub.publish(Notice(viewer.table_id, NoticeKind.GAME, out["version"], relayed))
        return out

    async def _direct(
        self, seat: int, viewer: Viewer, move: dict[str, Any], expected: int, move_id: str
    ) -> tuple[MoveAnswer, bool] | Illegal | None:
        """The move on the event loop, in the plain case: this process knows the table at
        ``expected`` with its seats and clock, the seat is the mover's, the move is legal and
        does not end the game. Then it is judged here, nothing is read, and it is written with
        no worker thread of its own: on Postgres as one statement sent from the loop
        (app/db/direct.py), on SQLite by the thread that writes moves together
        (app/tables/writer.py). None in every other case, and when the write fails or changes
        nothing: ``submit_sync`` then plays the move from the start and says what happened (a
        move_id that landed is caught by the log's unique key there). ``ILLEGAL`` when the move
        was judged illegal here (the threaded path says why, without going first)."""
        pool, writer = self.db.direct, self.writer
        table_id = viewer.table_id
        epoch = self.cache.epoch
        fresh = self.cache.get(table_id)
        if (
            (pool is None and writer is None)
            or fresh is None
            or fresh.version != expected
            or fresh.status != TableStatus.PLAYING
        ):
            return None
        bot_seat = any(x["seat"] == seat and x["bot_level"] for x in fresh.seats)
        if bot_seat != viewer.bot:
            return None
        if not viewer.bot and (
            viewer.profile_id is None or fresh.holders.get(seat) != viewer.profile_id
        ):
            return None
        try:
            tr = rules.apply_move(fresh.state, seat, move)
        except rules.IllegalMoveError:
            return ILLEGAL
        if rules.outcome(tr.state) is not None:
            return None
        paced = self.pace.after_known_move(
            table_id, expected, fresh.seats_version, tr.state, fresh.seats
        )
        if paced is None:
            return None
        clock, deadline = paced
        params, row, entry = move_written(
            table_id, seat, move_id, expected, fresh.seats_version, tr, clock, deadline
        )
        hint = None
        writing: Coroutine[Any, Any, int | None]
        if pool is not None:
            # While a relay runs, the statement tells the other processes too (as it commits).
            hint = None if self.hub.hint is None else self.hub.hint(table_id, entry.version)
            writing = repo.advance_and_log_direct(pool, params, row, hint)
        else:
            assert writer is not None
            writing = writer.write(params, row)
        # Its own task: a socket that closes while the move is written must not leave a move
        # that committed unremembered (the next move here would start from the version before).
        write = asyncio.ensure_future(writing)
        try:
            changed = await asyncio.shield(write)
        except asyncio.CancelledError:
            self.cache.forget(table_id)

            def settled(task: asyncio.Future[int | None]) -> None:
                self.cache.forget(table_id)
                if not task.cancelled() and task.exception() is None and task.result() == 1:
                    self.hub.publish(Notice(table_id, NoticeKind.GAME, entry.version))

            write.add_done_callback(settled)
            raise
        except psycopg.Error:
            return None
        if changed != 1:
            return None
        after = Fresh(
            entry.version,
            tr.state,
            TableStatus.PLAYING,
            entry,
            fresh.seats,
            fresh.seats_version,
            fresh.holders,
            fresh.lines_to_keep(),
        )
        self.cache.remember(table_id, after, epoch)
        self.pace.remember(table_id, entry.version, fresh.seats_version, clock)
        return _answer(entry, move_id, seat), hint is not None

    def submit_sync(
        self,
        table_id: str,
        seat: int,
        move: dict[str, Any],
        expected: int,
        move_id: str,
        bot: bool = False,
        profile_id: str | None = None,
        first: bool = True,
    ) -> tuple[MoveAnswer, bool]:
        """The move's transaction; (result, True) when committed now, (earlier result, False)
        for a move_id this seat has played already. A person's move (``bot`` False) is played
        only if ``profile_id`` holds ``seat`` in the seats the move is judged with. ``first``
        (SQLite): its transaction goes ahead of those waiting for the writer (app/db/gate.py),
        as a move's acknowledgement waits on it; not for a move already judged illegal, which
        a client could send in a loop to jump the queue."""
        one = self.db.postgres
        for _ in range(SEAT_ATTEMPTS + 1):  # (one more when the move turns out to end the game)
            try:
                return self._attempt(
                    table_id, seat, move, expected, move_id, bot, profile_id, one, first
                )
            except EndsGame:
                one = False
            except SeatsChanged:
                self.cache.forget(table_id)  # the next attempt reads the seats in its own txn
        raise StaleVersion("the seats changed; try again", version=expected)

    def _attempt(
        self,
        table_id: str,
        seat: int,
        move: dict[str, Any],
        expected: int,
        move_id: str,
        bot: bool,
        profile_id: str | None,
        one_statement: bool = False,
        first: bool = True,
    ) -> tuple[MoveAnswer, bool]:
        """The snapshot is read from the database unless this process knows version
        ``expected`` itself: a table's state at a version never changes, and the conditional
        update checks both the version and the seats the move was judged with. A ``move_id``
        seen before (for this seat) is caught by the log's unique key, which rolls the whole
        transaction back. A person cannot move for a seat handed to a bot, nor for a seat their
        profile does not hold in those seats (left, or taken by someone else on any instance),
        nor a ``bot`` for a seat no bot holds.

        ``one_statement`` (Postgres) and this process knows the table at ``expected``: nothing
        is read, and the update and the log insert go as one statement that commits by itself
        (``repository.advance_and_log``) — one round trip for the whole move."""
        epoch = self.cache.epoch
        fresh = self.cache.get(table_id)
        known = (
            fresh is not None and fresh.version == expected and fresh.status == TableStatus.PLAYING
        )
        one = one_statement and known
        try:
            with self.db.autocommit() if one else self.db.begin(first=first) as conn:
                if fresh is not None and known:
                    state, seats, seen = fresh.state, fresh.seats, fresh.seats_version
                    holders = fresh.holders
                    stored: Any = UNKNOWN
                else:
                    row = repo.snapshot(conn, table_id)
                    if row is None:
                        raise NotFound("no such table")
                    if (
                        row.status != TableStatus.PLAYING
                        or row.state is None
                        or row.version != expected
                    ):
                        refuse(conn, row, table_id, move_id, seat)
                    state = rules.decode_state(row.state)
                    seats, holders = repo.game_seats_and_holders(conn, table_id)
                    seen = row.seats_version
                    stored = row.clock
                bot_seat = any(x["seat"] == seat and x["bot_level"] for x in seats)
                if bot_seat != bot:
                    self._check_seats_current(conn, table_id, expected, seen, move_id, seat)
                    if bot_seat:
                        raise BotPlaysSeat(
                            "a bot plays this seat: take it back first", version=expected
                        )
                    # The bot thought while its seat was taken back.
                    raise NoBotSeat("no bot plays this seat any more", version=expected)
                if not bot and (profile_id is None or holders.get(seat) != profile_id):
                    self._check_seats_current(conn, table_id, expected, seen, move_id, seat)
                    raise NotYourSeat("you do not hold this seat now", version=expected)
                try:
                    tr = rules.apply_move(state, seat, move)
                except rules.IllegalMoveError as exc:
                    # Judged against version ``expected``: make sure that is still the table's.
                    self._check_seats_current(conn, table_id, expected, seen, move_id, seat)
                    raise IllegalMove(
                        str(getattr(exc, "message", exc)),
                        engine_code=getattr(exc, "code", "illegal"),
                        version=expected,
                    ) from exc
                finished = rules.outcome(tr.state) is not None
                if finished and one:
                    raise EndsGame()
                status = TableStatus.FINISHED if finished else TableStatus.PLAYING
                clock, deadline = self.pace.on_move(
                    conn, table_id, expected, seen, stored, tr.state, seats
                )
                params, row, entry = move_written(
                    table_id, seat, move_id, expected, seen, tr, clock, deadline, status
                )
                if one:
                    changed = repo.advance_and_log(conn, params, row)
                else:
                    changed = repo.advance(conn, params)
                if changed != 1:
                    # Lost a race (to a retry of this very move, or another), or the seats moved.
                    self._check_seats_current(conn, table_id, expected, seen, move_id, seat)
                    raise StaleVersion("the table has moved on", version=expected)
                if not one:
                    repo.log_move(conn, row)
                if finished:
                    for hook in self.finish_hooks:
                        hook(conn, table_id)
        except Prior as found:
            return found.result, False
        except IntegrityError:
            # This seat's move_id is in the log already (a retry, or a concurrent request with
            # the same move_id won the race), or another move took the version first.
            with self.db.begin() as conn:
                earlier = prior_result(conn, table_id, move_id, seat)
                if earlier is not None:
                    return earlier, False
                current = repo.version_of(conn, table_id)
            raise StaleVersion("the table has moved on", version=current) from None
        # Committed (the transaction block is closed).
        kept = fresh.lines_to_keep() if fresh is not None and known else ()
        fresh = Fresh(entry.version, tr.state, status, entry, seats, seen, holders, kept)
        self.cache.remember(table_id, fresh, epoch)
        self.pace.remember(table_id, entry.version, seen, clock)
        return _answer(entry, move_id, seat), True

    @staticmethod
    def _check_seats_current(
        conn: Connection, table_id: str, expected: int, seen: int, move_id: str, seat: int
    ) -> None:
        """Before a refusal judged from the seats and state at (``expected``, ``seen``): if the
        table is no longer there, say where it is (``refuse``) or judge again (the seats
        changed)."""
        row = repo.head(conn, table_id)
        if row is None:
            raise NotFound("no such table")
        if row.version != expected or row.status != TableStatus.PLAYING:
            refuse(conn, row, table_id, move_id, seat)
        if row.seats_version != seen:
            raise SeatsChanged()
