"""In-memory stand-ins for the socket's collaborators: a clock the test moves, a websocket whose
sends can be made to block, and a table service that counts what it is asked."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app import rules
from app.clock import ManualClock
from app.realtime.frames import trusted, wire
from app.realtime.limits import SocketLimits, SocketRegistry
from app.realtime.ports import Listener, Render
from app.realtime.socket import Connection
from app.tables.frames import Lobby, game_frame

GUARD = 30.0  # only so that a broken test fails instead of hanging
GAME = rules.new_game(7, {"players": 2})


def lobby(table_id: str) -> dict[str, Any]:
    """A lobby as the table service gives it: a running two-seat table, p1 on seat 0."""
    seat = {"taken": True, "bot_level": None, "host": False, "present": True, "last_seen": None}
    return {
        "id": table_id,
        "invite_code": None,
        "status": "playing",
        "seats": [
            {**seat, "seat": 0, "name": "p1", "host": True, "you": True},
            {**seat, "seat": 1, "name": "p2", "you": False},
        ],
        "seat_count": 2,
        "options": {},
        "host": True,
        "my_seat": 0,
        "version": 0,
        "outcome": None,
        "to_act": [0],
        "created_at": None,
        "name": None,
        "rematch_id": None,
        "clock": None,
    }


def snapshot(version: int, seat: int | None) -> str:
    """A snapshot as a socket sends it: the engine's render of a new game for ``seat``."""
    from app.tables.render import render

    frame = render(GAME, version, seat)
    seats = [{"seat": n, "name": f"p{n + 1}", "bot_level": None} for n in range(2)]
    frame.update(type="snapshot", status="playing", seats=seats, clock=None)
    return wire(game_frame(frame))


class FakeClock(ManualClock):
    """The project's manual clock (wall and monotonic time move together)."""


class FakeTransport:
    def __init__(self) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: asyncio.Queue[str] = asyncio.Queue()
        self.blocked = False  # sends never finish (a client that does not read)
        self.send_started = asyncio.Event()
        self.attempts = 0
        self.closed: tuple[int, str | None] | None = None
        self.closed_event = asyncio.Event()

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, data: str) -> None:
        self.attempts += 1
        self.send_started.set()
        if self.blocked:
            await asyncio.Event().wait()
        self.sent.put_nowait(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)
        self.closed_event.set()

    def push(self, text: str) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": text})

    async def next(self) -> str:
        return await asyncio.wait_for(self.sent.get(), GUARD)


@dataclass(frozen=True)
class FakeViewer:
    table_id: str
    seat: int | None


class FakeAccess:
    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self.moves: list[dict[str, Any]] = []
        self.catch_ups = 0
        self.lobby_error: Exception | None = None
        self.version = 0
        self.ends: list[Callable[[], None]] = []

    async def profile_of(self, token: str | None) -> str | None:
        return "p1" if token == "good" else None

    async def session_of(self, token: str | None) -> tuple[str, str] | None:
        return ("p1", "s1") if token == "good" else None

    async def viewer(self, profile_id: str, table_id: str, invite: str | None) -> FakeViewer:
        return FakeViewer(table_id, 0)

    async def admit(
        self, profile_id: str, table_id: str, invite: str | None, address: str
    ) -> FakeViewer:
        return await self.viewer(profile_id, table_id, invite)

    async def lobby(
        self, profile_id: str, table_id: str, invite: str | None
    ) -> tuple[str, FakeViewer]:
        if self.lobby_error is not None:
            raise self.lobby_error
        frame = wire(trusted(Lobby, {"table": lobby(table_id)}))
        return frame, await self.viewer(profile_id, table_id, invite)

    async def catch_up(
        self,
        viewer: Any,
        since: int | None,
        force: bool,
        shared: bool = True,
        deltas: bool = False,
    ) -> Render | None:
        self.catch_ups += 1
        text = snapshot(self.version, viewer.seat)
        return Render(self.version, text, {0: "p1", 1: None, 2: None, 3: None})

    async def submit_move(
        self,
        viewer: Any,
        move: dict[str, Any],
        expected_version: int,
        move_id: str,
        on_commit: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        self.moves.append(move)
        self.version += 1
        await on_commit(
            {"version": self.version, "move_id": move_id, "events": [], "duplicate": False}
        )

    def subscribe(self, table_id: str, listener: Listener) -> None:
        self.listeners.append(listener)

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        self.listeners.remove(listener)

    def watch_session(self, profile_id: str, session_id: str, end: Callable[[], None]) -> None:
        self.ends.append(end)

    def unwatch_session(self, profile_id: str, session_id: str, end: Callable[[], None]) -> None:
        self.ends.remove(end)


def connection(
    limits: SocketLimits | None = None,
) -> tuple[Connection, FakeTransport, FakeAccess, FakeClock]:
    transport, access, clock = FakeTransport(), FakeAccess(), FakeClock()
    conn = Connection(
        transport,
        access,
        limits or SocketLimits(),
        clock,
        SocketRegistry(),
        "t1",
        None,
        "127.0.0.1",
    )
    return conn, transport, access, clock
