"""What a table socket speaks with, and how it ends: the close codes, the transport and table
service it is given (as protocols, so the tests hand in fakes), and the shape of an error frame."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from app.realtime.access import Listener, Render
from app.realtime.frames import Error, error_frame

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
    """The table service as the socket sees it (``access.ServiceAccess``)."""

    async def profile_of(self, token: str | None) -> str | None: ...
    async def session_of(self, token: str | None) -> tuple[str, str] | None: ...
    async def viewer(self, profile_id: str, table_id: str, invite: str | None) -> Any: ...
    async def admit(
        self, profile_id: str, table_id: str, invite: str | None, address: str
    ) -> Any: ...
    async def lobby(self, profile_id: str, table_id: str, invite: str | None) -> dict[str, Any]: ...
    async def catch_up(
        self, viewer: Any, since: int | None, force: bool, shared: bool = True
    ) -> Render | None: ...
    async def submit_move(
        self,
        viewer: Any,
        move: dict[str, Any],
        expected_version: int,
        move_id: str,
        on_commit: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None: ...
    def subscribe(self, table_id: str, listener: Listener) -> None: ...
    def unsubscribe(self, table_id: str, listener: Listener) -> None: ...
    def watch_session(self, profile_id: str, session_id: str, end: Callable[[], None]) -> None: ...
    def unwatch_session(
        self, profile_id: str, session_id: str, end: Callable[[], None]
    ) -> None: ...


def error(code: str, message: str, ref: str | int | None = None, **extra: Any) -> Error:
    return error_frame(code, message, ref, **extra)
