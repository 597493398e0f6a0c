"""Play: the move transaction and the game reads.

A move is one Core transaction: (read the snapshot) -> judge -> conditional update -> log insert
-> commit; only after the commit is it published to the hub (which waits on nothing). The
conditional update lets exactly one move follow each version, and only with the seats the move
was judged with: ``seats_version`` advances with every seat change on any instance, so a seat
handed to a bot binds the very next move everywhere, with no notice needed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, cast

from anyio import to_thread
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from app import rules
from app.db.models import utcnow
from app.db.session import Database
from app.errors import (
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
from app.pace.events import pace_log
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import repository as repo
from app.tables.answers import CatchUp, CatchUpBase, GameAnswer, LogPage, UpdateAnswer
from app.tables.cache import TableCache
from app.tables.locks import KeyedLocks
from app.tables.render import log_entry, render
from app.tables.status import TableStatus
from app.tables.types import Fresh, LogRow, Viewer

# A client that is further behind than this gets a fresh snapshot instead of the missed moves.
MAX_CATCH_UP = 200
# Attempts of one move when the seats changed under it (each one re-reads them).
SEAT_ATTEMPTS = 3

# Hears, inside the move's transaction, that the move ended the game (the solo record).
FinishHook = Callable[[Connection, str], None]


class Prior(Exception):
    """Carries the earlier result of a move_id out of the transaction (which then rolls back)."""

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__("duplicate move_id")
        self.result = result


class SeatsChanged(Exception):
    """The seats changed since the move read them: the move is judged again from the database."""


def prior_result(conn: Connection, table_id: str, move_id: str, seat: int) -> dict[str, Any] | None:
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

    # ------------------------------------------------------------------ move
    async def submit_move(
        self,
        viewer: Viewer,
        move: Any,
        expected_version: int,
        move_id: str,
        on_commit: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
    ) -> dict[str, Any]:
        """Apply one move for the viewer's seat. The single entry point for HTTP, WS and bots.

        ``on_commit`` (optional) hears the result after the commit and before the broadcast: the
        socket uses it so that the mover's ``accepted`` frame precedes the ``update``.
        """
        if viewer.seat is None:
            raise NotYourSeat("you do not hold a seat at this table")
        if not isinstance(move, dict):
            raise Malformed("move must be an object")
        async with self.locks[viewer.table_id]:
            out, _fresh = await to_thread.run_sync(
                self.submit_sync,
                viewer.table_id,
                viewer.seat,
                move,
                expected_version,
                move_id,
                viewer.bot,
                viewer.profile_id,
            )
        if on_commit is not None:
            await on_commit(out)
        # Also on a duplicate: the first attempt may have committed without being announced.
        self.hub.publish(Notice(viewer.table_id, NoticeKind.GAME, out["version"]))
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
    ) -> tuple[dict[str, Any], bool]:
        """The move's transaction; (result, True) when committed now, (earlier result, False)
        for a move_id this seat has played already. A person's move (``bot`` False) is played
        only if ``profile_id`` holds ``seat`` in the seats the move is judged with."""
        for _ in range(SEAT_ATTEMPTS - 1):
            try:
                return self._attempt(table_id, seat, move, expected, move_id, bot, profile_id)
            except SeatsChanged:
                self.cache.forget(table_id)  # the next attempt reads the seats in its own txn
        try:
            return self._attempt(table_id, seat, move, expected, move_id, bot, profile_id)
        except SeatsChanged:
            raise StaleVersion("the seats changed; try again", version=expected) from None

    def _attempt(
        self,
        table_id: str,
        seat: int,
        move: dict[str, Any],
        expected: int,
        move_id: str,
        bot: bool,
        profile_id: str | None,
    ) -> tuple[dict[str, Any], bool]:
        """The snapshot is read from the database unless this process knows version
        ``expected`` itself: a table's state at a version never changes, and the conditional
        update checks both the version and the seats the move was judged with. A ``move_id``
        seen before (for this seat) is caught by the log's unique key, which rolls the whole
        transaction back. A person cannot move for a seat handed to a bot, nor for a seat their
        profile does not hold in those seats (left, or taken by someone else on any instance),
        nor a ``bot`` for a seat no bot holds."""
        epoch = self.cache.epoch
        try:
            with self.db.begin() as conn:
                fresh = self.cache.get(table_id)
                if (
                    fresh is not None
                    and fresh.version == expected
                    and fresh.status == TableStatus.PLAYING
                ):
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
                status = TableStatus.FINISHED if finished else TableStatus.PLAYING
                new_version = expected + 1
                now = utcnow()
                clock, deadline = self.pace.on_move(
                    conn, table_id, expected, seen, stored, tr.state, seats
                )
                changed = repo.advance(
                    conn,
                    {
                        "p_id": table_id,
                        "p_expected": expected,
                        "p_seats": seen,
                        "p_state": rules.state_blob(tr.state),
                        "p_version": new_version,
                        "p_status": status,
                        "p_at": now,
                        "p_clock": clock,
                        "p_deadline": deadline,
                    },
                )
                if changed != 1:
                    # Lost a race (to a retry of this very move, or another), or the seats moved.
                    self._check_seats_current(conn, table_id, expected, seen, move_id, seat)
                    raise StaleVersion("the table has moved on", version=expected)
                raw_events = list(tr.events)
                entry = LogRow(
                    version=new_version,
                    seat=seat,
                    move=rules.encode_move(rules.decode_move(move)),
                    events=raw_events,
                    created_at=now,
                )
                repo.log_move(
                    conn,
                    {
                        "table_id": table_id,
                        "version": new_version,
                        "seat": seat,
                        "move": entry.move,
                        "events": raw_events,
                        "move_id": move_id,
                        "created_at": now,
                    },
                )
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
        fresh = Fresh(new_version, tr.state, status, entry, seats, seen, holders)
        self.cache.remember(table_id, fresh, epoch)
        self.pace.remember(table_id, new_version, seen, clock)
        return (
            {
                "version": new_version,
                "move_id": move_id,
                "events": rules.events_for(raw_events, seat),
                "duplicate": False,
            },
            True,
        )

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

    # ------------------------------------------------------------------ reads
    async def game(self, viewer: Viewer, log_tail: int | None = None) -> GameAnswer:
        """The game for the viewer; its log whole, or only the newest ``log_tail`` lines (then
        ``log_more`` tells whether older ones remain: ``log_page`` reads them)."""
        return await to_thread.run_sync(self._game, viewer, log_tail)

    def _game(self, viewer: Viewer, log_tail: int | None) -> GameAnswer:
        with self.db.session() as s:
            t = repo.table(s, viewer.table_id)
            if t is None:
                raise NotFound("no such table")
            if t.state is None:
                raise WrongStatus("the game has not started")
            if log_tail is None:
                records, more = repo.full_log(s, t.id), False
            else:
                records, more = repo.log_page(s, t.id, None, log_tail)
            seats = repo.game_seats(s, t.id)
            return {
                **render(rules.decode_state(t.state), t.version, viewer.seat),
                "status": t.status,
                "seats": seats,
                "log": [log_entry(r, viewer.seat) for r in records],
                "log_more": more,
                "clock": self.pace.public(t.clock, seats),
                "pace_log": pace_log(s, t.id),
            }

    async def log_page(self, viewer: Viewer, before: int | None, limit: int) -> LogPage:
        """The newest ``limit`` log lines below version ``before``, oldest first, redacted for
        the viewer's seat; ``more``: older ones remain."""

        def work() -> LogPage:
            with self.db.session() as s:
                t = repo.table(s, viewer.table_id)
                if t is None:
                    raise NotFound("no such table")
                if t.state is None:
                    raise WrongStatus("the game has not started")
                rows, more = repo.log_page(s, t.id, before, limit)
                return {"entries": [log_entry(r, viewer.seat) for r in rows], "more": more}

        return await to_thread.run_sync(work)

    async def catch_up(
        self, viewer: Viewer, since: int | None, force: bool = False
    ) -> CatchUp | None:
        """What a listener at ``since`` needs: the missed moves, or a snapshot.

        None when there is no game yet, or when ``since`` is current (unless ``force``). The
        frame carries ``holders`` (the profile holding each seat, read with the state it
        renders): the caller checks its viewer against it and removes it before sending.
        """
        frame = self.fresh_update(viewer, since, force)
        if frame is not None:
            return frame
        table_id = viewer.table_id
        # Another socket of this table is reading it already (a move committed by another
        # process reaches all of them at once): one read serves them all.
        if not force and await self.cache.wait_loading(table_id):
            frame = self.fresh_update(viewer, since, force)
            if frame is not None:
                return frame
        done = self.cache.start_loading(table_id)
        try:
            return await to_thread.run_sync(self.catch_up_sync, viewer, since, force)
        finally:
            self.cache.done_loading(table_id, done)

    def fresh_update(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
        """The update for a listener one move behind, when this process knows that move:
        rendered from memory, with no database round trip and no worker thread. (If the table has
        moved on since, the next notice brings the socket further.)"""
        fresh = self.cache.get(viewer.table_id)
        if fresh is None or force or since is None or fresh.version != since + 1:
            return None
        clock = self.pace.public_known(
            viewer.table_id, fresh.version, fresh.seats_version, fresh.seats
        )
        if clock is UNKNOWN:
            return None
        return {
            **render(fresh.state, fresh.version, viewer.seat),
            "holders": fresh.holders,
            "type": "update",
            "status": fresh.status,
            "seats": [dict(x) for x in fresh.seats],
            "since": since,
            "moves": [log_entry(fresh.entry, viewer.seat)],
            "clock": cast(dict[str, Any] | None, clock),  # known (not UNKNOWN) here
        }

    def catch_up_sync(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
        frame = self.fresh_update(viewer, since, force)
        if frame is not None:
            return frame
        return self.catch_up_db(viewer, since, force)

    def catch_up_db(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
        """``catch_up`` read from the database (and remembered as the table's fresh state)."""
        epoch = self.cache.epoch
        with self.db.begin() as conn:
            t = repo.snapshot(conn, viewer.table_id)
            if t is None or t.state is None:
                return None
            if since is not None and since == t.version and not force:
                return None
            state = rules.decode_state(t.state)
            game_seats, holders = repo.game_seats_and_holders(conn, viewer.table_id)
            base: CatchUpBase = {
                **render(state, t.version, viewer.seat),
                "status": t.status,
                "seats": game_seats,
                "holders": holders,
                "clock": self.pace.public(t.clock, game_seats),
            }
            self.pace.remember(viewer.table_id, t.version, t.seats_version, t.clock)
            if since is None or since > t.version or t.version - since > MAX_CATCH_UP:
                return {**base, "type": "snapshot"}
            records = repo.log_between(conn, viewer.table_id, since, t.version)
            out: UpdateAnswer = {
                **base,
                "type": "update",
                "since": since,
                "moves": [log_entry(r, viewer.seat) for r in records],
            }
        if records and records[-1].version == t.version:
            # Remember the table as read (another process committed it): the other sockets of
            # the table here, and the next move made here, start from it.
            last = records[-1]
            entry = LogRow(last.version, last.seat, last.move, last.events, last.created_at)
            seats = [dict(x) for x in game_seats]
            fresh = Fresh(t.version, state, t.status, entry, seats, t.seats_version, holders)
            self.cache.remember(viewer.table_id, fresh, epoch)
        return out
