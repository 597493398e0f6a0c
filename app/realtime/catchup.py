"""A table socket's game: the lobby and the game frames it is sent after a hello or a notice.

The socket keeps the version it was last sent; a hello, or a notice of a later version, asks the
tables feature (``Access.catch_up``) for the frame after it — the missed steps of the table's
history, or a full view — and sends it only if it was rendered for a seat this socket's profile
held then (``Render.for_profile``); else the viewer is judged again.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from app.errors import AppError
from app.realtime import frames as f
from app.realtime.outbox import GameChanged, HelloRequest
from app.realtime.ports import CLOSE_FORBIDDEN, CLOSE_TRY_AGAIN, Render, error

if TYPE_CHECKING:
    from app.realtime.socket import Connection

log = logging.getLogger("emara.socket")


class GameSync:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.synced = False  # a hello has been answered
        self.deltas = False  # the last hello asked for deltas
        self.version: int | None = None  # last game version sent to this socket

    async def _send_render(self, render: Render) -> None:
        self.version = render.version
        await self.conn.send(render.text)

    async def _for_me(self, since: int | None, force: bool) -> Render | None:
        """The catch-up for the seat this socket's profile held at the version rendered.

        A render names who held each seat then; if that is not this profile (it left, or its
        seat went to someone else, on any instance), the viewer is judged again from the
        database and the table rendered afresh for what the profile is now: a spectator (told
        ``seat_lost``, then sent the lobby and a full snapshot), or closed (4403) when it may
        not look on. None: nothing to send (or the socket is closing)."""
        c = self.conn
        assert c.viewer is not None and c.profile_id is not None
        render = await c.access.catch_up(c.viewer, since, force, deltas=self.deltas)
        for _ in range(2):
            if render is None or render.for_profile(c.viewer.seat, c.profile_id):
                return render
            before = c.viewer.seat
            try:
                c.viewer = await c.access.viewer(c.profile_id, c.table_id, c.invite)
            except AppError as exc:
                if exc.status >= 500:
                    raise
                await c.send(f.wire(error("seat_lost", "you no longer hold a seat here")))
                c.finish(CLOSE_FORBIDDEN, "seat lost")
                return None
            if c.viewer.seat != before:
                message = "you no longer hold that seat"
                await c.send(f.wire(error("seat_lost", message, seat=c.viewer.seat)))
                await self.send_lobby(None)
                since = None  # the earlier frames were another seat's: start over
            render = await c.access.catch_up(c.viewer, since, True, shared=False)
        log.info("socket on table %s: the seats keep changing, closed", c.table_id)
        c.finish(CLOSE_TRY_AGAIN, "the seats changed: reconnect")
        return None

    async def on_hello(self, hello: HelloRequest) -> None:
        await self.send_lobby(hello.ref)
        c = self.conn
        assert c.viewer is not None
        render = await self._for_me(hello.since, True)
        self.synced = True
        if render is not None:
            await self._send_render(render)
            # A catch-up the client asked for costs what it sends: a token per N bytes.
            c.bucket.charge(len(render.text) / c.limits.catch_up_token_bytes)
        for feed in c.feeds:
            feed.hello()  # what a companion sends follows the hello's answer

    async def send_lobby(self, ref: str | int | None) -> None:
        c = self.conn
        assert c.profile_id is not None
        try:
            lobby, c.viewer = await c.access.lobby(c.profile_id, c.table_id, c.invite)
        except AppError as exc:
            await c.send(f.wire(error(exc.code, exc.message, ref)))
            if exc.status < 500:
                # The profile may no longer look at the table (it left its seat, and has no
                # invite to look on with): the socket ends, it keeps no earlier seat.
                await c.send(f.wire(error("seat_lost", "you no longer hold a seat here")))
                c.finish(CLOSE_FORBIDDEN, "seat lost")
            return
        await c.send(lobby)

    async def on_game(self, notice: GameChanged) -> None:
        if not self.synced or self.conn.viewer is None:
            return
        behind = notice.version is None or self.version is None or notice.version > self.version
        if not behind:
            return
        render = await self._for_me(self.version, False)
        if render is not None:
            await self._send_render(render)
