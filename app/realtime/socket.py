"""One table socket: the handshake, then a reader, a writer and a heartbeat (the lobby and game
frames the writer sends after a hello or a notice: app/realtime/catchup.py).

Every inbound frame is checked (``frames.parse_client``) before anything is done and gets an
answer or a close, never silence. Answers go through a bounded ``Outbox``; a client that falls
behind (outbox full, or one send blocked past the send timeout) is closed with 1013, one that
stops answering with 4408. A failure in any of the three tasks closes the socket with 1011 and is
logged: a socket is either served or closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

from starlette.websockets import WebSocketDisconnect

from app.clock import Clock
from app.errors import AppError
from app.realtime import frames as f
from app.realtime.catchup import GameSync
from app.realtime.hub import Notice
from app.realtime.limits import Bucket, Slot, SocketLimits, SocketRegistry
from app.realtime.outbox import GameChanged, HelloRequest, LobbyChanged, Outbox, PingDue, Text
from app.realtime.ports import (
    CLOSE_FORBIDDEN,
    CLOSE_INTERNAL,
    CLOSE_NO_ANSWER,
    CLOSE_NOT_FOUND,
    CLOSE_POLICY,
    CLOSE_TOO_MANY,
    CLOSE_TRY_AGAIN,
    CLOSE_UNAUTHENTICATED,
    CLOSE_WAIT_SECONDS,
    RETRY_SECONDS,
    Access,
    Companion,
    CompanionFeed,
    SeatView,
    Transport,
    error,
)

log = logging.getLogger("emara.socket")


class Notices:
    """The socket's hub listener: the notices a companion registered for go to its feed, the
    rest (the game's and the lobby's) to the socket's outbox."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self._routes: dict[str, list[CompanionFeed]] = {}

    def route(self, kinds: frozenset[str], feed: CompanionFeed) -> None:
        for kind in kinds:
            self._routes.setdefault(kind, []).append(feed)

    def put_nowait(self, notice: object) -> None:
        feeds = self._routes.get(notice.kind) if isinstance(notice, Notice) else None
        if feeds is None:
            self.outbox.put_nowait(notice)
            return
        assert isinstance(notice, Notice)
        for feed in feeds:
            feed.put_nowait(notice)


class Connection:
    def __init__(
        self,
        transport: Transport,
        access: Access,
        limits: SocketLimits,
        clock: Clock,
        registry: SocketRegistry,
        table_id: str,
        invite: str | None,
        address: str,
        companions: Sequence[Companion] = (),
    ) -> None:
        self.transport, self.access, self.limits = transport, access, limits
        self.companions = tuple(companions)
        self.feeds: list[CompanionFeed] = []  # one per companion, made once the socket is served
        self.clock, self.registry = clock, registry
        self.table_id, self.invite, self.address = table_id, invite, address
        self.outbox = Outbox(limits.outbox_frames, limits.outbox_bytes, self._fell_behind)
        self.bucket = Bucket(limits.rate_per_second, limits.rate_burst, clock)
        self.profile_id: str | None = None
        self.session_id = ""  # the device session (My devices): signing it out ends the socket
        self.viewer: SeatView | None = None
        self.game = GameSync(self)  # the lobby and game frames it is sent
        now = clock.monotonic()
        self.heard = now  # last frame from the client
        self.last_sent = now
        self.sending_since: float | None = None  # a send under way since then
        self.close_code: int | None = None
        self.close_reason = ""
        self.done = asyncio.Event()

    # ---------------------------------------------------------------- lifecycle
    async def run(self, token: str | None, presented: bool = False) -> None:
        """``presented``: the token came in an Authorization header, so a bad one is refused at
        once instead of waiting for a first-frame ``auth`` (a stale cookie still may)."""
        try:
            found = await self.access.session_of(token)
            if found is not None:
                self.profile_id, self.session_id = found
        except AppError:
            await self.transport.close(CLOSE_TRY_AGAIN, "try again later")
            return
        await self.transport.accept()
        first: f.Hello | None = None
        if self.profile_id is None and presented:
            await self._refuse(
                error("unauthenticated", "the token is not valid (expired or signed out)", None),
                CLOSE_UNAUTHENTICATED,
                "unauthenticated",
            )
            return
        if self.profile_id is None:
            authed = await self._authenticate()
            if authed is False:
                return
            first = authed if isinstance(authed, f.Hello) else None
        assert self.profile_id is not None
        try:
            self.viewer = await self.access.admit(
                self.profile_id, self.table_id, self.invite, self.address
            )
        except AppError as exc:
            codes = {403: CLOSE_FORBIDDEN, 404: CLOSE_NOT_FOUND}
            code = codes.get(exc.status, CLOSE_TRY_AGAIN)  # else: the database is away
            await self._refuse(error(exc.code, exc.message), code, exc.code)
            return
        slot = Slot(self.profile_id, self.address, self.table_id)
        over = self.registry.claim(slot, self.limits)
        if over is not None:
            limit = getattr(self.limits, f"per_{over}")
            frame = error("too_many_sockets", f"too many sockets per {over}", per=over, limit=limit)
            await self._refuse(frame, CLOSE_TOO_MANY, "too many sockets")
            return
        try:
            await self._serve(first)
        finally:
            self.registry.release(slot)

    async def _serve(self, first: f.Hello | None) -> None:
        assert self.viewer is not None and self.profile_id is not None
        welcome = f.Welcome(
            table_id=self.table_id,
            seat=self.viewer.seat,
            profile_id=self.profile_id,
            heartbeat=self.limits.heartbeat_seconds,
        )
        try:
            await self.transport.send_text(f.wire(welcome))
        except (WebSocketDisconnect, OSError):
            return  # gone already
        listener = Notices(self.outbox)
        tasks = []
        for companion in self.companions:
            feed = companion.feed(self.table_id, self._viewer, self.outbox.put_text)
            self.feeds.append(feed)
            listener.route(companion.notice_kinds, feed)
            tasks.append(asyncio.create_task(self._guarded("companion", feed.run())))
        self.access.subscribe(self.table_id, listener)
        self.access.watch_session(self.profile_id, self.session_id, self._signed_out)
        for companion in self.companions:
            await companion.opened(self.table_id, self.profile_id)
        if first is not None:
            self._hello(first)
        tasks += [
            asyncio.create_task(self._guarded("reader", self._reader())),
            asyncio.create_task(self._guarded("writer", self._writer())),
        ]
        self.registry.heartbeat.add(self, min(1.0, self.limits.heartbeat_seconds / 4))
        try:
            await self.done.wait()
        finally:
            self.registry.heartbeat.remove(self)
            self.access.unsubscribe(self.table_id, listener)
            self.access.unwatch_session(self.profile_id, self.session_id, self._signed_out)
            for task in tasks:
                task.cancel()
            # Shielded: when the server itself cancels the handler (shutdown), the socket's tasks
            # still end before it returns.
            await asyncio.shield(asyncio.gather(*tasks, return_exceptions=True))
            for companion in self.companions:  # this socket is gone (presence)
                await companion.closed(self.table_id, self.profile_id)
            if self.close_code is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(
                        self.transport.close(self.close_code, self.close_reason),
                        CLOSE_WAIT_SECONDS,
                    )

    def finish(self, code: int | None, reason: str = "") -> None:
        """End the socket (``code`` None: the client is gone, nothing to send)."""
        if self.done.is_set():
            return
        self.close_code, self.close_reason = code, reason
        self.done.set()

    def _signed_out(self) -> None:
        """This device was signed out (from My devices), or every device of the profile was
        (sign out everywhere), here or on another instance: the socket ends now."""
        log.info("socket on table %s: its profile was signed out everywhere", self.table_id)
        self.finish(CLOSE_UNAUTHENTICATED, "signed out")

    def _fell_behind(self) -> None:
        log.info("socket on table %s fell behind: closed", self.table_id)
        self.finish(CLOSE_TRY_AGAIN, "fell behind: reconnect and hello since")

    async def _guarded(self, name: str, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            if not self.done.is_set():  # not our own cancellation at the close
                log.error("table socket %s cancelled (table %s)", name, self.table_id)
                self.finish(CLOSE_INTERNAL, "internal error")
            raise
        except (WebSocketDisconnect, OSError):
            self.finish(None)
        except Exception:
            log.exception("table socket %s failed (table %s)", name, self.table_id)
            self.finish(CLOSE_INTERNAL, "internal error")

    async def _refuse(self, frame: f.Error, code: int, reason: str) -> None:
        with contextlib.suppress(WebSocketDisconnect, OSError):
            await self.transport.send_text(f.wire(frame))
            await self.transport.close(code, reason)

    async def _authenticate(self) -> f.Hello | f.Auth | bool:
        """No cookie: the first frame carries the token (``auth``, or ``hello`` with ``token``).
        False when the socket was refused (and closed)."""
        try:
            msg = await asyncio.wait_for(self.transport.receive(), self.limits.auth_timeout_seconds)
        except TimeoutError:
            msg = {}
        except (WebSocketDisconnect, OSError):
            return False
        if msg.get("type") == "websocket.disconnect":
            return False
        # Nobody is known yet: the first frame may be small (an auth or a hello with a token).
        frame = f.parse_client(
            msg.get("text"), self.limits.first_frame_bytes, self.limits.max_depth
        )
        token = frame.token if isinstance(frame, f.Auth | f.Hello) else None
        found = await self.access.session_of(token)
        if found is None or not isinstance(frame, f.Auth | f.Hello):
            await self._refuse(
                error("unauthenticated", "a valid profile token is needed", frame.ref),
                CLOSE_UNAUTHENTICATED,
                "unauthenticated",
            )
            return False
        self.profile_id, self.session_id = found
        return frame

    # ---------------------------------------------------------------- inbound
    async def _reader(self) -> None:
        while True:
            msg = await self.transport.receive()
            if msg["type"] == "websocket.disconnect":
                self.finish(None)
                return
            if self.done.is_set():  # closing (fell behind, flooded): read no further
                return
            self.heard = self.clock.monotonic()
            # The rate limit is charged before the frame is even looked at: a flood costs a
            # token check per frame, never a parse.
            if not self.bucket.take():
                self.registry.frames_refused += 1  # /metrics: rate-limit refusals, socket_frames
                if self.bucket.refused > 10 * self.limits.rate_burst:
                    self.finish(CLOSE_POLICY, "rate limit")
                    return
                ref = f.peek_ref(msg.get("text"))
                self._reply(error("rate_limited", "too many frames, slow down", ref))
                continue
            frame = f.parse_client(
                msg.get("text"), self.limits.max_frame_bytes, self.limits.max_depth
            )
            await self._handle(frame)

    def _reply(self, frame: f.Sent) -> None:
        self.outbox.put_text(f.wire(frame))

    async def _handle(
        self, frame: f.Hello | f.Move | f.Ping | f.Pong | f.Auth | f.Chat | f.MarkSeen | f.Refusal
    ) -> None:
        if isinstance(frame, f.Refusal):
            self._reply(frame.frame())
        elif isinstance(frame, f.Ping):
            self._reply(f.ServerPong() if frame.ref is None else f.ServerPong(ref=frame.ref))
        elif isinstance(frame, f.Hello):
            self._hello(frame)
        elif isinstance(frame, f.Move):
            await self._move(frame)
        elif isinstance(frame, f.Chat | f.MarkSeen):
            await self._companion_frame(frame)
        # pong answers our ping; a later auth needs nothing (the socket is authenticated)

    def _viewer(self) -> SeatView | None:
        """The viewer the companions write for: none before a hello is answered, so that what
        they send (chat, presence) follows the lobby and the game, never comes before them."""
        return self.viewer if self.game.synced else None

    def _hello(self, frame: f.Hello) -> None:
        self.game.deltas = frame.deltas
        self.outbox.put_hello(frame.since, frame.ref)

    async def _companion_frame(self, frame: f.Chat | f.MarkSeen) -> None:
        """A client frame a companion answers (a chat message, a seen mark): its direct answer,
        with the frame's ref; what it announces reaches the table's sockets through the
        companion's feeds."""
        for companion in self.companions:
            if frame.type in companion.frame_kinds and self.viewer is not None:
                self._reply(await companion.answer(self.viewer, frame))
                return
        self._reply(error("unknown_frame", f"{frame.type} is not served here", frame.ref))

    async def _move(self, frame: f.Move) -> None:
        ref = frame.ref
        extra = {} if ref is None else {"ref": ref}

        async def accepted(out: Mapping[str, Any]) -> None:
            self.outbox.put_text(f.trusted_wire(f.Accepted, {**out, **extra}))

        assert self.viewer is not None
        try:
            await self.access.submit_move(
                self.viewer, frame.move, frame.expected_version, frame.move_id, accepted
            )
        except AppError as exc:
            self._reply(f.error_frame(**exc.to_dict(), move_id=frame.move_id, ref=ref))

    # ---------------------------------------------------------------- heartbeat
    def tick(self) -> None:
        """One heartbeat step on the injected clock (app/realtime/heartbeat.py calls it for every
        open socket): a send blocked too long or a silent client ends the socket; a quiet socket
        gets a ping."""
        now = self.clock.monotonic()
        if (
            self.sending_since is not None
            and now - self.sending_since > self.limits.send_timeout_seconds
        ):
            log.info("socket on table %s stopped reading: closed", self.table_id)
            self.finish(CLOSE_TRY_AGAIN, "fell behind: reconnect and hello since")
        elif now - self.heard > self.limits.idle_timeout_seconds:
            self.finish(CLOSE_NO_ANSWER, "no answer")
        elif now - self.last_sent >= self.limits.heartbeat_seconds:
            self.outbox.put_ping()

    # ---------------------------------------------------------------- outbound
    async def send(self, data: str) -> None:
        self.sending_since = self.clock.monotonic()
        await self.transport.send_text(data)
        self.sending_since = None
        self.last_sent = self.clock.monotonic()

    async def _writer(self) -> None:
        while True:
            item = await self.outbox.get()
            try:
                if isinstance(item, Text):
                    await self.send(item.data)
                elif isinstance(item, PingDue):
                    ping = f.ServerPing(t=int(self.clock.now()))
                    await self.send(f.wire(ping))
                elif isinstance(item, HelloRequest):
                    await self.game.on_hello(item)
                elif isinstance(item, LobbyChanged):
                    await self.game.send_lobby(None)
                else:
                    await self.game.on_game(item)
            except AppError as exc:
                # The database is away: say so, and try the catch-up again shortly.
                ref = item.ref if isinstance(item, HelloRequest) else None
                await self.send(f.wire(error(exc.code, exc.message, ref)))
                if not isinstance(item, Text | PingDue):
                    asyncio.get_running_loop().call_later(RETRY_SECONDS, self._retry, item)

    def _retry(self, item: HelloRequest | LobbyChanged | GameChanged) -> None:
        if self.done.is_set():
            return
        if isinstance(item, HelloRequest):
            self.outbox.put_hello(item.since, item.ref)
        elif isinstance(item, LobbyChanged):
            self.outbox.put_nowait(Notice(self.table_id, "lobby"))
        else:
            self.outbox.put_nowait(Notice(self.table_id, "game", item.version))
