"""The game feed: what a seat receives, from the engine's typed ``View`` to the frames.

- the game for HTTP (``game``, ``log_page``), redacted for the viewer's seat;
- a socket's catch-up (``catch_up``): the missed moves, or a snapshot when there is no
  ``since`` or it is too far behind — rendered from this process's memory of the table when it
  holds what is needed (no database round trip), else read from the database;
- the frames themselves are made once for every socket that asks (app/tables/renders.py).

The move itself is judged and committed in app/tables/play.py; the socket (app/realtime) reaches
this module through app/tables/access.py.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, cast

from anyio import to_thread
from sqlalchemy.orm import Session

from app import rules
from app.db.models import GameTable
from app.db.session import Database
from app.errors import NotFound, WrongStatus
from app.pace.book import UNKNOWN, PaceBook
from app.pace.events import pace_log
from app.tables import repository as repo
from app.tables.answers import (
    CatchUp,
    CatchUpBase,
    GameAnswer,
    GameRender,
    LogPage,
    UpdateAnswer,
)
from app.tables.cache import TableCache
from app.tables.render import log_entry, render, render_all
from app.tables.types import LINES_KEPT, Fresh, LogRow, Viewer

# A client that is further behind than this gets a fresh snapshot instead of the missed moves.
MAX_CATCH_UP = 200
# Tables whose newest state is kept rendered for every seat (the others render again).
RENDERS_KEPT = 1024


def started(s: Session, table_id: str) -> tuple[GameTable, dict[str, Any]]:
    """The table and its game's stored state (else the typed error that says why not)."""
    t = repo.table(s, table_id)
    if t is None:
        raise NotFound("no such table")
    if t.state is None:
        raise WrongStatus("the game has not started")
    return t, t.state


class GameFeed:
    def __init__(self, db: Database, cache: TableCache, pace: PaceBook) -> None:
        self.db = db
        self.cache = cache
        self.pace = pace
        # table -> (its fresh state, that state rendered for every seat and a spectator, its seats)
        self._renders: OrderedDict[
            str, tuple[Fresh, dict[int | None, GameRender], list[dict[str, Any]]]
        ] = OrderedDict()

    async def game(self, viewer: Viewer, log_tail: int | None = None) -> GameAnswer:
        """The game for the viewer; its log whole, or only the newest ``log_tail`` lines (then
        ``log_more`` tells whether older ones remain: ``log_page`` reads them)."""
        return await to_thread.run_sync(self._game, viewer, log_tail)

    def _game(self, viewer: Viewer, log_tail: int | None) -> GameAnswer:
        with self.db.read_session() as s:
            t, blob = started(s, viewer.table_id)
            if log_tail is None:
                records, more = repo.full_log(s, t.id), False
            else:
                records, more = repo.log_page(s, t.id, None, log_tail)
            seats = repo.game_seats(s, t.id)
            return {
                **render(rules.decode_state(blob), t.version, viewer.seat),
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
            with self.db.read_session() as s:
                t, _ = started(s, viewer.table_id)
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
        # process reaches all of them at once; the sockets of a table that just started say
        # hello together): one read serves them all.
        if await self.cache.wait_loading(table_id):
            frame = self.fresh_update(viewer, since, force)
            if frame is not None:
                return frame
        done = self.cache.start_loading(table_id)
        try:
            return await to_thread.run_sync(self.catch_up_sync, viewer, since, force)
        finally:
            self.cache.done_loading(table_id, done)

    def fresh_update(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
        """``catch_up`` from this process's memory of the table, when it knows what is needed:
        the update for a listener a few moves behind (``Fresh.lines_after``), the snapshot for
        one with nothing (or too far behind), the empty update a hello at the current version
        asks for. Rendered with no database round trip and no worker thread; None when the
        database must be read (or, without ``force``, when there is nothing to send).

        The memory is as current as the notices this process heard: a move made elsewhere
        makes it forget the table (``TableCache.heard``), and one whose notice is still on its
        way is caught up by that notice, as a database read made a moment earlier would be."""
        fresh = self.cache.get(viewer.table_id)
        if fresh is None:
            return None
        if since is not None and since > fresh.version:
            return None  # the listener knows a later version than this memory: read it
        snapshot = since is None or fresh.version - since > MAX_CATCH_UP
        lines: list[LogRow] = []
        if not snapshot:
            assert since is not None
            if since == fresh.version and not force:
                return None
            if since < fresh.version:
                after = fresh.lines_after(since)
                if after is None:
                    return None  # more moves behind than this memory holds
                lines = after
        clock = self.pace.public_known(
            viewer.table_id, fresh.version, fresh.seats_version, fresh.seats
        )
        if clock is UNKNOWN:
            return None
        rendered, seats = self._rendered(viewer.table_id, fresh, viewer.seat)
        base: CatchUpBase = {
            **rendered,
            "holders": fresh.holders,
            "status": fresh.status,
            "seats": seats,
            "clock": cast(dict[str, Any] | None, clock),  # known (not UNKNOWN) here
        }
        if snapshot or since is None:
            return {**base, "type": "snapshot"}
        out: UpdateAnswer = {
            **base,
            "type": "update",
            "since": since,
            "moves": [log_entry(line, viewer.seat) for line in lines],
        }
        return out

    def _rendered(
        self, table_id: str, fresh: Fresh, seat: int | None
    ) -> tuple[GameRender, list[dict[str, Any]]]:
        """The table's fresh state rendered for ``seat``, and its seats as the catch-ups carry
        them: the first seat to ask renders every seat and a spectator at once
        (``render_all``); the others of that version take theirs, and share one copy of the
        seats (a catch-up is never changed once made)."""
        known = self._renders.get(table_id)
        if known is None or known[0] is not fresh:
            seats: list[int | None] = [x["seat"] for x in fresh.seats]
            seats.append(None)
            # The previous version's public view lends its unchanged parts (rules.views_for).
            earlier = None
            if known is not None and (public := known[1].get(None)) is not None:
                earlier = (known[0].state, public["view"])
            rendered = render_all(fresh.state, fresh.version, seats, earlier)
            known = (fresh, rendered, [dict(x) for x in fresh.seats])
            self._renders[table_id] = known
            self._renders.move_to_end(table_id)
            while len(self._renders) > RENDERS_KEPT:
                self._renders.popitem(last=False)
        found = known[1].get(seat)
        return (found if found is not None else render(fresh.state, fresh.version, seat)), known[2]

    def catch_up_sync(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
        frame = self.fresh_update(viewer, since, force)
        if frame is not None:
            return frame
        return self.catch_up_db(viewer, since, force)

    def catch_up_db(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
        """``catch_up`` read from the database (and remembered as the table's fresh state)."""
        epoch = self.cache.epoch
        with self.db.read() as conn:
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
            if t.version == 0:  # a game with no move yet: its memory needs no log line
                self._remember_read(viewer.table_id, t, state, game_seats, holders, [], epoch)
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
            lines = [
                LogRow(r.version, r.seat, r.move, r.events, r.created_at)
                for r in records[-LINES_KEPT:]
            ]
            self._remember_read(viewer.table_id, t, state, game_seats, holders, lines, epoch)
        return out

    def _remember_read(
        self,
        table_id: str,
        t: Any,
        state: Any,
        game_seats: list[Any],
        holders: dict[int, str | None],
        lines: list[LogRow],
        epoch: int,
    ) -> None:
        """Remember the table as read (another process committed it, or it has just started):
        the other sockets of the table here, and the next move made here, start from it.
        ``lines``: the newest log lines, up to ``t.version`` (none at version 0)."""
        fresh = Fresh(
            t.version,
            state,
            t.status,
            lines[-1] if lines else None,
            [dict(x) for x in game_seats],
            t.seats_version,
            holders,
            tuple(lines[:-1]),
        )
        self.cache.remember(table_id, fresh, epoch)
