"""A socket's outbox: what is owed to one client, bounded in frames and in bytes.

Direct answers are kept encoded, in order, and count against both bounds; past either bound the
outbox refuses and reports an overflow (the socket is then closed with 1013: the client resyncs
with ``hello {since}`` after reconnecting). What only needs its newest instance coalesces instead
of piling up: the hub's notices (a lobby change; a game change, newest version), the heartbeat's
ping, and a pending ``hello`` (a newer one replaces it).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from app.realtime.hub import Notice


@dataclass(frozen=True)
class Text:
    data: str


@dataclass(frozen=True)
class HelloRequest:
    since: int | None
    ref: str | int | None


@dataclass(frozen=True)
class PingDue:
    pass


@dataclass(frozen=True)
class LobbyChanged:
    pass


@dataclass(frozen=True)
class GameChanged:
    version: int | None


Item = Text | HelloRequest | PingDue | LobbyChanged | GameChanged
_NO_VERSION = -1


class Outbox:
    def __init__(self, max_frames: int, max_bytes: int, on_overflow: Callable[[], None]) -> None:
        self.max_frames, self.max_bytes = max_frames, max_bytes
        self.on_overflow = on_overflow
        self._texts: deque[str] = deque()
        self.bytes = 0
        self.overflowed = False
        self._hello: HelloRequest | None = None
        self._ping = False
        self._lobby = False
        self._game: int | None = None  # newest game version heard (-1: a version-less notice)
        self._wake = asyncio.Event()

    @property
    def frames(self) -> int:
        return len(self._texts)

    def put_text(self, data: str) -> bool:
        """Queue an encoded frame; False (and an overflow) when it would pass a bound."""
        if self.overflowed:
            return False
        if len(self._texts) >= self.max_frames or self.bytes + len(data) > self.max_bytes:
            self.overflowed = True
            self._texts.clear()
            self.bytes = 0
            self.on_overflow()
            return False
        self._texts.append(data)
        self.bytes += len(data)
        self._wake.set()
        return True

    def put_hello(self, since: int | None, ref: str | int | None) -> None:
        self._hello = HelloRequest(since, ref)
        self._wake.set()

    def put_ping(self) -> None:
        self._ping = True
        self._wake.set()

    def put_nowait(self, notice: object) -> None:
        """The hub's entry point (``Hub.deliver``): coalesce, never grow."""
        if not isinstance(notice, Notice):
            return
        if notice.kind == "lobby":
            self._lobby = True
        else:
            version = _NO_VERSION if notice.version is None else notice.version
            self._game = version if self._game is None else max(self._game, version)
        self._wake.set()

    def _take(self) -> Item | None:
        if self._texts:
            data = self._texts.popleft()
            self.bytes -= len(data)
            return Text(data)
        if self._ping:
            self._ping = False
            return PingDue()
        if self._hello is not None:
            hello, self._hello = self._hello, None
            self._lobby = False  # a hello's answer starts with the lobby
            return hello
        if self._lobby:
            self._lobby = False
            return LobbyChanged()
        if self._game is not None:
            version, self._game = self._game, None
            return GameChanged(None if version == _NO_VERSION else version)
        return None

    async def get(self) -> Item:
        while True:
            item = self._take()
            if item is not None:
                return item
            self._wake.clear()
            await self._wake.wait()
