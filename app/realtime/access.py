"""The socket's one adapter to the table service: every ``svc.*`` the socket uses is here.

Catch-ups are rendered once and shared: for each (table, seat, since, force) the service renders
the frame and it is encoded once; every socket that asks for the same thing while the table has
not changed gets the same bytes. Any notice for a table (a move, a lobby change, from this process
or relayed) forgets that table's renders, and renders already under way for it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

import orjson

from app.errors import NotFound, RateLimited
from app.profiles.service import ProfileService, session_subject
from app.ratelimit import LimitName, RateLimiter
from app.realtime.frames import wire
from app.realtime.hub import Notice, NoticeKind
from app.tables.answers import CatchUp
from app.tables.frames import game_frame
from app.tables.service import TableService, Viewer


def encode(frame: dict[str, Any]) -> str:
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


class Listener(Protocol):
    def put_nowait(self, notice: object) -> None: ...


@dataclass(frozen=True)
class Render:
    """A shared catch-up: the game version it brings a socket to, its encoded frame, and the
    profile that held each seat when it was rendered (never sent: a socket sends a seat's
    frame only to the profile that held that seat then)."""

    version: int
    text: str
    holders: Mapping[int, str | None]

    def for_profile(self, seat: int | None, profile_id: str | None) -> bool:
        """Whether this frame, rendered for ``seat``, may go to ``profile_id``: a spectator's
        frame to anyone who may look, a seat's only to its holder."""
        return seat is None or (profile_id is not None and self.holders.get(seat) == profile_id)


Key = tuple[str, int | None, int | None, bool]


class SharedRenders:
    def __init__(self, max_entries: int = 512) -> None:
        self.max_entries = max_entries
        self._done: OrderedDict[Key, Render | None] = OrderedDict()
        self._pending: dict[Key, asyncio.Task[Render | None]] = {}
        self.renders = 0  # how many times the service was asked (for tests and figures)

    def forget(self, notice: Notice) -> None:
        if notice.kind in (NoticeKind.PRESENCE, NoticeKind.CHAT):
            return  # presence and chat change no game render
        for store in (self._done, self._pending):
            for key in [k for k in store if k[0] == notice.table_id]:
                del store[key]

    async def get(
        self, key: Key, produce: Callable[[], Awaitable[CatchUp | None]]
    ) -> Render | None:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        task = self._pending.get(key)
        if task is None:
            # A task of its own: a socket that goes away mid-render cancels its wait, not the
            # render the other sockets wait for.
            task = asyncio.create_task(self._render(key, produce))
            task.add_done_callback(_retrieve)
            self._pending[key] = task
            self.renders += 1
        return await asyncio.shield(task)

    async def _render(
        self, key: Key, produce: Callable[[], Awaitable[CatchUp | None]]
    ) -> Render | None:
        me = asyncio.current_task()
        try:
            frame = await produce()
        except BaseException:
            if self._pending.get(key) is me:
                del self._pending[key]
            raise
        if frame is None:
            render = None
        else:
            render = Render(frame["version"], wire(game_frame(frame)), frame.get("holders", {}))
        if self._pending.get(key) is me:  # not forgotten meanwhile: still current
            del self._pending[key]
            self._done[key] = render
            if len(self._done) > self.max_entries:
                self._done.popitem(last=False)
        return render


def _retrieve(task: asyncio.Task[Render | None]) -> None:
    """A failed render is reported to the sockets that waited; nobody else needs it."""
    if not task.cancelled():
        task.exception()


class ServiceAccess:
    """What the socket needs from the table service."""

    def __init__(
        self, svc: TableService, profiles: ProfileService, limiter: RateLimiter | None = None
    ) -> None:
        self.svc = svc
        self.profiles = profiles
        self.limiter = limiter
        self.renders = SharedRenders()
        svc.hub.watchers.append(self.renders.forget)

    async def profile_of(self, token: str | None) -> str | None:
        """The profile a token signs in (checked for expiry and revocation), else None."""
        return await self.profiles.profile_for_token(token)

    async def session_of(self, token: str | None) -> tuple[str, str] | None:
        """(profile, device session) a token signs in, else None."""
        info = await self.profiles.session(token)
        return None if info is None else (info.profile_id, info.session_id)

    async def viewer(self, profile_id: str, table_id: str, invite: str | None) -> Viewer:
        return await self.svc.viewer(profile_id, table_id, invite)

    async def admit(
        self, profile_id: str, table_id: str, invite: str | None, address: str
    ) -> Viewer:
        """The handshake's look-up: with an invite code it is a guess like the HTTP ones, counted
        under the same "invite" limit when refused (429 once the limit is used up) — except for
        a player who sits at the table, who needs no invite and is never locked out."""
        if invite is None or self.limiter is None:
            return await self.viewer(profile_id, table_id, invite)
        keys = [f"ip:{address}", f"profile:{profile_id}"]
        try:
            await self.limiter.ensure_open(LimitName.INVITE, keys)
        except RateLimited:
            if not await self.svc.holds_seat(profile_id, table_id):
                raise
        try:
            return await self.viewer(profile_id, table_id, invite)
        except NotFound:
            await self.limiter.miss(LimitName.INVITE, keys)
            raise

    async def lobby(self, profile_id: str, table_id: str, invite: str | None) -> dict[str, Any]:
        return await self.svc.lobby(profile_id, table_id, invite)

    async def catch_up(
        self, viewer: Viewer, since: int | None, force: bool, shared: bool = True
    ) -> Render | None:
        """The catch-up for the viewer's seat; ``shared`` False reads the table afresh (no
        render shared with other sockets, no memory of this process)."""
        if not shared:
            frame = await self.svc.catch_up(viewer, since, force=True, fresh=True)
            if frame is None:
                return None
            return Render(frame["version"], wire(game_frame(frame)), frame.get("holders", {}))
        key: Key = (viewer.table_id, viewer.seat, since, force)
        return await self.renders.get(key, lambda: self.svc.catch_up(viewer, since, force=force))

    def watch_session(self, profile_id: str, session_id: str, end: Callable[[], None]) -> None:
        """``end`` is called when the profile is signed out everywhere, or this device is."""
        self.svc.hub.watch_profile(profile_id, end)
        self.svc.hub.watch_profile(session_subject(session_id), end)

    def unwatch_session(self, profile_id: str, session_id: str, end: Callable[[], None]) -> None:
        self.svc.hub.unwatch_profile(profile_id, end)
        self.svc.hub.unwatch_profile(session_subject(session_id), end)

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
