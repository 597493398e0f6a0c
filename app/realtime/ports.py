"""What a table socket speaks with, and how it ends: the close codes, the transport, the game
feed and the companions it is given (as protocols: the features implement them and ``create_app``
hands them in; the tests hand in fakes), and the shape of an error frame.

The transport knows no feature. The tables feature gives it an ``Access`` (app/tables/access.py);
each feature that sends frames of its own beside the game (chat, presence) registers a
``Companion``: the notice kinds it hears and the client frame kinds it answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.realtime.frames import Error, Sent, error_frame
from app.realtime.hub import Notice

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008  # a client that keeps flooding past the rate limit
CLOSE_INTERNAL = 1011  # the server failed serving this socket
CLOSE_TRY_AGAIN = 1013  # the server is busy, or the client fell behind: reconnect, hello {since}
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_NO_ANSWER = 4408  # nothing heard within the idle timeout
CLOSE_TOO_MANY = 4429  # a socket cap (profile, address, table, process)
CLOSE_WAIT_SECONDS = 2.0  # how long a close frame may take to go out before we give up on it
RETRY_SECONDS = 0.2  # a catch-up that met a database outage is tried again after this


class Listener(Protocol):
    def put_nowait(self, notice: object) -> None: ...


@dataclass(frozen=True)
class Render:
    """A game frame ready to send: the game version it brings a socket to, its encoded text, and
    the profile that held each seat when it was rendered (never sent: a socket sends a seat's
    frame only to the profile that held that seat then)."""

    version: int
    text: str
    holders: Mapping[int, str | None]

    def for_profile(self, seat: int | None, profile_id: str | None) -> bool:
        """Whether this frame, rendered for ``seat``, may go to ``profile_id``: a spectator's
        frame to anyone who may look, a seat's only to its holder."""
        return seat is None or (profile_id is not None and self.holders.get(seat) == profile_id)


class Transport(Protocol):
    """The part of a Starlette ``WebSocket`` the connection uses."""

    async def accept(self) -> None: ...
    async def receive(self) -> Mapping[str, Any]: ...
    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class SeatView(Protocol):
    @property
    def table_id(self) -> str: ...
    @property
    def seat(self) -> int | None: ...


class Access(Protocol):
    """The tables feature as the socket sees it (app/tables/access.py)."""

    async def profile_of(self, token: str | None) -> str | None: ...
    async def session_of(self, token: str | None) -> tuple[str, str] | None: ...
    async def viewer(self, profile_id: str, table_id: str, invite: str | None) -> Any: ...
    async def admit(
        self, profile_id: str, table_id: str, invite: str | None, address: str
    ) -> Any: ...
    async def lobby(self, profile_id: str, table_id: str, invite: str | None) -> tuple[str, Any]:
        """The encoded ``lobby`` frame for the profile, and its viewer (as ``viewer``), read
        together."""

    async def catch_up(
        self,
        viewer: Any,
        since: int | None,
        force: bool,
        shared: bool = True,
        deltas: bool = False,
    ) -> Render | None:
        """The game for the viewer's seat from ``since``: a snapshot, an update, or (``deltas``)
        a delta when the feed can make one; None when there is nothing to send."""

    async def submit_move(
        self,
        viewer: Any,
        move: dict[str, Any],
        expected_version: int,
        move_id: str,
        on_commit: Callable[[Mapping[str, Any]], Awaitable[None]],
    ) -> None: ...
    def subscribe(self, table_id: str, listener: Listener) -> None: ...
    def unsubscribe(self, table_id: str, listener: Listener) -> None: ...
    def watch_session(self, profile_id: str, session_id: str, end: Callable[[], None]) -> None: ...
    def unwatch_session(
        self, profile_id: str, session_id: str, end: Callable[[], None]
    ) -> None: ...


class CompanionFeed(Protocol):
    """One socket's share of a companion: it hears the companion's notices for the table and
    sends its frames through ``put_text`` from its own task (``run``)."""

    def put_nowait(self, notice: Notice) -> None: ...
    def hello(self) -> None:
        """The client said hello: what the companion sends after the game's answer."""

    async def run(self) -> None: ...


class Companion(Protocol):
    """A feature that sends frames of its own on the table socket (chat, presence), registered
    with the socket at start-up (``create_app``)."""

    notice_kinds: frozenset[str]  # hub notices that go to its feeds, not the game's outbox
    frame_kinds: frozenset[str]  # client frame types it answers

    def feed(
        self, table_id: str, viewer: Callable[[], Any], put_text: Callable[[str], bool]
    ) -> CompanionFeed: ...
    async def opened(self, table_id: str, profile_id: str) -> None: ...
    async def closed(self, table_id: str, profile_id: str) -> None:
        """Never raises: it must not keep a socket from closing."""

    async def answer(self, viewer: Any, frame: Any) -> Sent:
        """The direct answer to one of its client frames (the viewer as ``Access`` judged it)."""


def error(code: str, message: str, ref: str | int | None = None, **extra: Any) -> Error:
    return error_frame(code, message, ref, **extra)


@dataclass
class Served:
    """What the table socket serves, handed to it at start-up (``create_app``): the tables'
    ``Access`` and the companions (app/plug.py ``Feature.socket_access``, ``companions``)."""

    access: Access
    companions: tuple[Companion, ...] = ()
