"""The table service: one object over the lobby, play, the fresh-table memory and the audit.

``app.state.service`` is this object: the endpoints, the socket and the bot runner call it. The
work lives in the feature modules (``lobby``, ``play``, ``feed``, ``history``, ``cache``,
``audit``);
this facade only wires them to one database, hub and set of per-table locks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from anyio import to_thread

from app.db.session import Database
from app.pace.book import PaceBook
from app.realtime.hub import Hub
from app.realtime.notify import CHANNEL
from app.tables import lobby_repository as lobby_repo
from app.tables.answers import CatchUp, GameAnswer, LobbyAnswer, LogPage, MoveAnswer
from app.tables.audit import Audit
from app.tables.cache import TableCache
from app.tables.explain import ExplainAnswer, Explainer
from app.tables.feed import GameFeed
from app.tables.history import History
from app.tables.host import HostActs
from app.tables.lobby import Lobby
from app.tables.locks import KeyedLocks
from app.tables.options import TableOptionsDoc
from app.tables.play import Play
from app.tables.preview import preview
from app.tables.preview_schemas import TablePreviewOut
from app.tables.types import Viewer, seat_viewer

__all__ = ["TableService", "Viewer"]


class TableService:
    def __init__(self, db: Database, hub: Hub, channel: str = CHANNEL) -> None:
        """``channel``: the one the other processes listen on (app/realtime/notify.py)."""
        self.db = db
        self.hub = hub
        # One lock per table in this process: spares the database most lost races. Kept only
        # while in use (see KeyedLocks), so it does not grow with every table ever played.
        self.locks = KeyedLocks()
        self.cache = TableCache()
        hub.watchers.append(self.cache.heard)
        # Pace: the clock a move leaves behind (its memory shared by the lobby's start and play).
        self.pace = PaceBook()
        self.lobbies = Lobby(db, hub, self.locks, self.pace)
        self.host = HostActs(db, hub, self.locks)
        self.play = Play(db, hub, self.locks, self.cache, self.pace, channel)
        self.feed = GameFeed(db, self.cache, self.pace)
        # What a socket that is behind receives: the frames after its version, or a full one.
        self.history = History(self.cache, self.pace, self.feed.catch_up_db)
        hub.watchers.append(self.history.heard)
        self.audit = Audit(db)
        self.explainer = Explainer(db)

    @property
    def table_create_limit(self) -> tuple[int, float] | None:
        return self.lobbies.table_create_limit

    @table_create_limit.setter
    def table_create_limit(self, value: tuple[int, float] | None) -> None:
        self.lobbies.table_create_limit = value

    # ------------------------------------------------------------------ lobby
    async def create_table(
        self, profile_id: str, seat_count: int, options: TableOptionsDoc
    ) -> LobbyAnswer:
        return await self.lobbies.create_table(profile_id, seat_count, options)

    async def lobby(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> LobbyAnswer:
        return await self.lobbies.lobby(profile_id, table_id, invite_code)

    async def join(
        self, profile_id: str, table_id: str, invite_code: str, another_person: bool = False
    ) -> LobbyAnswer:
        return await self.lobbies.join(profile_id, table_id, invite_code, another_person)

    async def preview(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> TablePreviewOut:
        """What a visitor without a seat sees of a table before picking a name."""

        def work() -> TablePreviewOut:
            with self.db.read() as conn:
                return preview(conn, profile_id, table_id, invite_code)

        return await to_thread.run_sync(work)

    async def leave(self, profile_id: str, table_id: str) -> LobbyAnswer:
        return await self.lobbies.leave(profile_id, table_id)

    async def start(self, profile_id: str, table_id: str, seed: int | None = None) -> LobbyAnswer:
        return await self.lobbies.start(profile_id, table_id, seed)

    async def rename(self, profile_id: str, table_id: str, name: str | None) -> LobbyAnswer:
        return await self.lobbies.rename(profile_id, table_id, name)

    async def my_tables(self, profile_id: str) -> list[LobbyAnswer]:
        return await self.lobbies.my_tables(profile_id)

    async def remove_person(self, host_id: str, table_id: str, seat: int) -> LobbyAnswer:
        """The host removes the person at ``seat`` from the lobby (app/tables/host.py)."""
        return await self.host.remove(host_id, table_id, seat)

    async def hand_host(self, host_id: str, table_id: str, seat: int) -> LobbyAnswer:
        """The host hands the host role to the person at ``seat`` (app/tables/host.py)."""
        return await self.host.hand_over(host_id, table_id, seat)

    async def holds_seat(self, profile_id: str, table_id: str) -> bool:
        """The profile has a seat at the table: it needs no invite code to look at it."""

        def work() -> bool:
            with self.db.read_session() as s:
                return lobby_repo.holds_seat(s, profile_id, table_id)

        return await to_thread.run_sync(work)

    async def viewer(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> Viewer:
        return await self.lobbies.viewer(profile_id, table_id, invite_code)

    async def lobby_and_viewer(
        self, profile_id: str | None, table_id: str, invite_code: str | None
    ) -> tuple[LobbyAnswer, Viewer]:
        return await self.lobbies.lobby_and_viewer(profile_id, table_id, invite_code)

    @staticmethod
    def seat_viewer(table_id: str, seat: int) -> Viewer:
        return seat_viewer(table_id, seat)

    # ------------------------------------------------------------------ play and the feed
    async def game(self, viewer: Viewer, log_tail: int | None = None) -> GameAnswer:
        return await self.feed.game(viewer, log_tail)

    async def log_page(self, viewer: Viewer, before: int | None, limit: int) -> LogPage:
        return await self.feed.log_page(viewer, before, limit)

    async def explain(self, viewer: Viewer) -> ExplainAnswer:
        """Every piece on the board explained for the viewer's seat (app/tables/explain.py)."""
        return await self.explainer.explain(viewer)

    async def submit_move(
        self,
        viewer: Viewer,
        move: Any,
        expected_version: int,
        move_id: str,
        on_commit: Callable[[MoveAnswer], Awaitable[None]] | None = None,
    ) -> MoveAnswer:
        return await self.play.submit_move(viewer, move, expected_version, move_id, on_commit)

    async def catch_up(
        self, viewer: Viewer, since: int | None, force: bool = False, fresh: bool = False
    ) -> CatchUp | None:
        """``fresh``: read from the database, whatever this process remembers."""
        if fresh:
            return await to_thread.run_sync(self.feed.catch_up_db, viewer, since, force)
        return await self.history.catch_up(viewer, since, force)

    # ------------------------------------------------------------------ audit
    def replay_matches(self, table_id: str) -> bool:
        return self.audit.replay_matches(table_id)

    def count_moves(self, table_id: str) -> int:
        return self.audit.count_moves(table_id)
