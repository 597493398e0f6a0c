"""The socket's one adapter to the table service: every ``svc.*`` the socket uses is here.

Catch-ups are rendered once and shared: for each (table, seat, since, force) the service renders
the frame and it is encoded once; every socket that asks for the same thing while the table has
not changed gets the same bytes. Any notice for a table (a move, a lobby change, from this process
or relayed) forgets that table's renders, and renders already under way for it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

import orjson

from app.realtime.hub import Notice
from app.tables.service import TableService, Viewer


def encode(frame: dict[str, Any]) -> str:
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


class Listener(Protocol):
    def put_nowait(self, notice: object) -> None: ...


@dataclass(frozen=True)
class Render:
    """A shared catch-up: the game version it brings a socket to, and its encoded frame."""

    version: int
    text: str


Key = tuple[str, int | None, int | None, bool]


class SharedRenders:
    def __init__(self, max_entries: int = 512) -> None:
        self.max_entries = max_entries
        self._done: OrderedDict[Key, Render | None] = OrderedDict()
        self._pending: dict[Key, asyncio.Future[Render | None]] = {}
        self.renders = 0  # how many times the service was asked (for tests and figures)

    def forget(self, notice: Notice) -> None:
        for store in (self._done, self._pending):
            for key in [k for k in store if k[0] == notice.table_id]:
                del store[key]

    async def get(
        self, key: Key, produce: Callable[[], Awaitable[dict[str, Any] | None]]
    ) -> Render | None:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Render | None] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            self.renders += 1
            frame = await produce()
            render = None if frame is None else Render(int(frame["version"]), encode(frame))
        except BaseException as exc:
            if self._pending.get(key) is future:
                del self._pending[key]
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody else needs to
            raise
        if self._pending.get(key) is future:  # not forgotten meanwhile: still current
            del self._pending[key]
            self._done[key] = render
            if len(self._done) > self.max_entries:
                self._done.popitem(last=False)
        future.set_result(render)
        return render


class ServiceAccess:
    """What the socket needs from the table service."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.renders = SharedRenders()
        svc.hub.watchers.append(self.renders.forget)

    async def profile_of(self, token: str | None) -> str | None:
        pid = self.svc.signer.profile_id(token)
        if pid is None or await self.svc.profile(pid) is None:
            return None
        return pid

    async def viewer(self, profile_id: str, table_id: str, invite: str | None) -> Viewer:
        return await self.svc.viewer(profile_id, table_id, invite)

    async def lobby(self, profile_id: str, table_id: str, invite: str | None) -> dict[str, Any]:
        return await self.svc.lobby(profile_id, table_id, invite)

    async def catch_up(self, viewer: Viewer, since: int | None, force: bool) -> Render | None:
        key: Key = (viewer.table_id, viewer.seat, since, force)
        return await self.renders.get(key, lambda: self.svc.catch_up(viewer, since, force=force))

    async def submit_move(
        self,
        viewer: Viewer,
        move: dict[str, Any],
        expected_version: int,
        move_id: str,
        on_commit: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        await self.svc.submit_move(viewer, move, expected_version, move_id, on_commit)

    def subscribe(self, table_id: str, listener: Listener) -> None:
        self.svc.hub.subscribe(table_id, cast(asyncio.Queue[object], listener))

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        self.svc.hub.unsubscribe(table_id, cast(asyncio.Queue[object], listener))
