"""The game as the database holds it, redacted for one seat.

- the game for HTTP (``game``, ``log_page``);
- a catch-up read from the database (``catch_up_db``): the missed moves, or a snapshot when
  there is no ``since`` or it is too far behind; what it read is remembered as the table's fresh
  state, so that the table's history (app/tables/history.py) serves the other sockets from it.

The move itself is judged and committed in app/tables/play.py.
"""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from sqlalchemy.orm import Session

from app import rules
from app.db.models import GameTable
from app.db.session import Database
from app.errors import NotFound, WrongStatus
from app.pace.book import PaceBook
from app.pace.events import pace_log
from app.tables import repository as repo
from app.tables.answers import CatchUp, CatchUpBase, GameAnswer, LogPage, UpdateAnswer
from app.tables.cache import TableCache
from app.tables.history import MAX_CATCH_UP
from app.tables.render import log_entry, render
from app.tables.schemas import GameSeat
from app.tables.types import LINES_KEPT, Fresh, LogRow, Viewer


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
        game_seats: list[GameSeat],
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
            [x.copy() for x in game_seats],
            t.seats_version,
            holders,
            tuple(lines[:-1]),
        )
        self.cache.remember(table_id, fresh, epoch)
