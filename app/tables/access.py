"""The tables as the table socket sees them (``app.realtime.ports.Access``): who a token signs
in, who may look at a table (the invite guess counted like the HTTP ones), the lobby frame, the
frames a socket that is behind receives (app/tables/history.py), and the move."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from app.errors import NotFound, RateLimited
from app.profiles.service import ProfileService, session_subject
from app.ratelimit import LimitName, RateLimiter
from app.realtime.frames import trusted_wire
from app.realtime.ports import Listener, Render
from app.tables.frames import Lobby
from app.tables.history import frame_of
from app.tables.service import TableService, Viewer


class TableAccess:
    """What the socket needs from the tables (``app.realtime.ports.Access``)."""

    def __init__(
        self, svc: TableService, profiles: ProfileService, limiter: RateLimiter | None = None
    ) -> None:
        self.svc = svc
        self.profiles = profiles
        self.limiter = limiter

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
        under the same "invite" limit and the table's own misses when refused (app/ratelimit
        ``guess_open``: 429 once both are used up) — except for a player who sits at the
        table, who needs no invite and is never locked out."""
        if invite is None or self.limiter is None:
            return await self.viewer(profile_id, table_id, invite)
        keys = [f"ip:{address}", f"profile:{profile_id}"]
        try:
            guess = await self.limiter.guess_open(LimitName.INVITE, keys, table_id)
        except RateLimited:
            if not await self.svc.holds_seat(profile_id, table_id):
                raise
            return await self.viewer(profile_id, table_id, invite)
        try:
            return await self.viewer(profile_id, table_id, invite)
        except NotFound as exc:
            refused = await self.limiter.guess_missed(guess)
            if refused is not None:
                raise refused from exc
            raise

    async def lobby(self, profile_id: str, table_id: str, invite: str | None) -> tuple[str, Viewer]:
        table, viewer = await self.svc.lobby_and_viewer(profile_id, table_id, invite)
        return trusted_wire(Lobby, {"table": table}), viewer

    async def catch_up(
        self,
        viewer: Viewer,
        since: int | None,
        force: bool,
        shared: bool = True,
        deltas: bool = False,
    ) -> Render | None:
        """The frame for the viewer's seat after ``since`` (app/tables/history.py); ``shared``
        False reads the table afresh (nothing this process remembers: never a delta)."""
        if not shared:
            frame = await self.svc.catch_up(viewer, since, force=True, fresh=True)
            return None if frame is None else frame_of(frame)
        return await self.svc.history.frame(viewer, since, force, deltas)

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
        on_commit: Callable[[Mapping[str, Any]], Awaitable[None]],
    ) -> None:
        await self.svc.submit_move(viewer, move, expected_version, move_id, on_commit)

    def subscribe(self, table_id: str, listener: Listener) -> None:
        self.svc.hub.subscribe(table_id, cast(asyncio.Queue[object], listener))

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        self.svc.hub.unsubscribe(table_id, cast(asyncio.Queue[object], listener))
