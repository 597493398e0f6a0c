"""Players of a real stack on loopback (tests and bench/): profiles, seated tables, moves over
HTTP, and ``SeatSocket``, one WebSocket client of a seat (hello/since, move frames, updates)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from dataclasses import dataclass
from typing import Any, cast

import httpx

from app import rules
from app.devtools.stack import TempDatabase
from app.tables.delta import DOC_FIELDS, GameDoc, apply_patch, digest
from app.tables.options import TableOptionsDoc


@dataclass
class Player:
    id: str
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def new_player(client: httpx.Client, name: str | None = None) -> Player:
    r = client.post("/api/profiles", json={"name": name or f"p{uuid.uuid4().hex[:6]}"})
    r.raise_for_status()
    d = r.json()
    return Player(d["id"], d["name"], d["token"])


@dataclass
class SeatedTable:
    id: str
    invite_code: str
    players: list[Player]  # index = seat number


def seat_table(
    client: httpx.Client, seats: int = 4, options: TableOptionsDoc | None = None
) -> SeatedTable:
    """Create profiles, a table, join every seat, start; players[i] holds seat i."""
    players = [new_player(client) for _ in range(seats)]
    r = client.post(
        "/api/tables",
        json={"seats": seats, "options": options or {}},
        headers=players[0].headers,
    )
    r.raise_for_status()
    t = r.json()
    for p in players[1:]:
        r = client.post(
            f"/api/tables/{t['id']}/join", json={"invite_code": t["invite_code"]}, headers=p.headers
        )
        r.raise_for_status()
    r = client.post(f"/api/tables/{t['id']}/start", headers=players[0].headers)
    r.raise_for_status()
    # Map seats to players from the server's own lobby (join order need not be seat order).
    by_seat: dict[int, Player] = {}
    for p in players:
        lobby = client.get(f"/api/tables/{t['id']}", headers=p.headers).json()
        by_seat[int(lobby["my_seat"])] = p
    ordered = [by_seat[i] for i in sorted(by_seat)]
    return SeatedTable(t["id"], t["invite_code"], ordered)


def get_game(client: httpx.Client, table_id: str, player: Player) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table_id}/game", headers=player.headers)
    r.raise_for_status()
    return dict(r.json())


def http_move(
    client: httpx.Client,
    table_id: str,
    player: Player,
    move: rules.EncodedMove,
    expected_version: int,
    move_id: str | None = None,
) -> httpx.Response:
    return client.post(
        f"/api/tables/{table_id}/moves",
        json={
            "move": move,
            "expected_version": expected_version,
            "move_id": move_id or uuid.uuid4().hex,
        },
        headers=player.headers,
    )


# -- WebSocket clients --------------------------------------------------------------------------


@dataclass
class FrameTally:
    """Frames and their UTF-8 bytes as received, by frame type; one tally may serve many
    sockets."""

    frames: dict[str, int]
    bytes: dict[str, int]

    @classmethod
    def empty(cls) -> FrameTally:
        return cls({}, {})

    def add(self, kind: str, size: int) -> None:
        self.frames[kind] = self.frames.get(kind, 0) + 1
        self.bytes[kind] = self.bytes.get(kind, 0) + size

    def copy(self) -> FrameTally:
        return FrameTally(dict(self.frames), dict(self.bytes))

    def since(self, earlier: FrameTally) -> FrameTally:
        """What arrived after ``earlier`` (a ``copy`` of this tally) was taken."""
        return FrameTally(
            {k: v - earlier.frames.get(k, 0) for k, v in self.frames.items()},
            {k: v - earlier.bytes.get(k, 0) for k, v in self.bytes.items()},
        )

    @property
    def total_bytes(self) -> int:
        return sum(self.bytes.values())


class SeatSocket:
    """One seat's socket. ``frames`` collects every frame; ``version`` follows the table.

    With ``keep``, only about the last ``keep`` frames stay in ``frames`` (a load run would
    otherwise hold every frame it ever received); ``received`` counts them all, and the ``start``
    of ``wait_for`` counts from the first frame ever received.

    Like the page (static/js/socket.js), the socket answers a server ``ping`` with a ``pong``
    (``answer_pings``) and, with ``ping_every``, sends a ``ping`` of its own that often, so a
    quiet socket is not closed as silent (4408). With ``tally``, every frame received is counted
    there with its UTF-8 size.
    """

    def __init__(
        self,
        ws_base: str,
        table_id: str,
        token: str,
        origin: str | None = None,
        keep: int | None = None,
        deltas: bool = False,
        answer_pings: bool = True,
        ping_every: float | None = None,
        tally: FrameTally | None = None,
    ) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.answer_pings = answer_pings
        self.ping_every = ping_every
        self.tally = tally
        self._pinger: asyncio.Task[None] | None = None
        # With ``deltas`` the hello asks for them: ``doc`` is the game as the frames left it (a
        # delta patches it); a delta that does not follow ``version``, or whose digest differs
        # from ``doc``'s, is counted in ``resyncs`` and answered with a hello for a snapshot.
        self.deltas = deltas
        self.doc: GameDoc | None = None
        self.resyncs = 0
        self.origin = origin or ws_base.replace("ws://", "http://")
        self.token = token
        self.keep = keep
        self.dropped = 0  # frames let go of (``keep``)
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        self.version = -1
        self.legal_moves: list[rules.EncodedMove] = []
        self.view: rules.View | None = None
        self.close_code: int | None = None
        self._cond = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, since: int | None = None, timeout: float = 10.0) -> SeatSocket:
        import websockets
        from websockets.typing import Origin

        self.ws = await asyncio.wait_for(
            websockets.connect(
                self.url,
                origin=Origin(self.origin),
                additional_headers={"Authorization": f"Bearer {self.token}"},
                max_size=2**24,
                open_timeout=timeout,
            ),
            timeout,
        )
        self.close_code = None
        self._reader = asyncio.create_task(self._read())
        if self.ping_every:
            self._pinger = asyncio.create_task(self._ping(self.ping_every))
        if since is None and self.version >= 0:
            since = self.version
        await self.hello(since)
        return self

    async def hello(self, since: int | None) -> None:
        frame: dict[str, Any] = {"type": "hello", "since": since}
        if self.deltas:
            frame["deltas"] = True
        await self.send(frame)

    async def send(self, frame: dict[str, Any] | str | bytes) -> None:
        data = frame if isinstance(frame, str | bytes) else json.dumps(frame)
        await self.ws.send(data)

    async def send_move(
        self,
        move: rules.EncodedMove,
        expected_version: int | None = None,
        move_id: str | None = None,
    ) -> str:
        mid = move_id or uuid.uuid4().hex
        await self.send(
            {
                "type": "move",
                "move": move,
                "expected_version": self.version if expected_version is None else expected_version,
                "move_id": mid,
            }
        )
        return mid

    async def _ping(self, every: float) -> None:
        with contextlib.suppress(Exception):
            while True:
                await asyncio.sleep(every)
                await self.send({"type": "ping"})

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                try:
                    frame = json.loads(raw)
                except ValueError:
                    frame = {"type": "_unparsable", "raw": str(raw)[:200]}
                if self.tally is not None:
                    text = raw if isinstance(raw, bytes) or raw.isascii() else raw.encode()
                    size = len(text)
                    self.tally.add(str(frame.get("type")), size)
                if self.answer_pings and frame.get("type") == "ping":
                    with contextlib.suppress(Exception):
                        await self.send({"type": "pong"})
                if not self._absorb(frame):
                    self.resyncs += 1
                    await self.hello(None)
                async with self._cond:
                    self.frames.append(frame)
                    if self.keep is not None and len(self.frames) > 2 * self.keep:
                        cut = len(self.frames) - self.keep
                        del self.frames[:cut]
                        self.dropped += cut
                    self._cond.notify_all()
        except Exception:
            pass
        finally:
            if self._pinger is not None:
                self._pinger.cancel()
            self.close_code = getattr(self.ws, "close_code", None) or 1006
            async with self._cond:
                self._cond.notify_all()

    def _absorb(self, frame: dict[str, Any]) -> bool:
        """Follow the game's frames; False: out of step (a delta that cannot be applied)."""
        # Only state frames move the socket's version: an ack or an error names a version too,
        # but carries no view and no legal moves.
        kind = frame.get("type")
        if kind not in ("snapshot", "update", "delta"):
            return True
        v = frame.get("version")
        if not isinstance(v, int) or v < self.version:
            return True
        if kind == "delta":
            if self.doc is None or frame.get("since") != self.version:
                return False
            try:
                doc: GameDoc = apply_patch(self.doc, frame.get("patch") or [])
            except ValueError:
                return False
            if frame.get("digest") is not None and digest(doc) != frame["digest"]:
                return False
        else:
            # (a snapshot or an update holds every field of the document)
            doc = cast(GameDoc, {k: frame[k] for k in DOC_FIELDS if k in frame})
        self.doc = doc
        self.version = v
        self.legal_moves = list(doc.get("legal_moves") or [])
        if "view" in doc:
            self.view = doc["view"]
        return True

    @property
    def received(self) -> int:
        """How many frames arrived so far (``len(frames)`` unless ``keep`` let some go)."""
        return self.dropped + len(self.frames)

    async def wait_for(self, pred: Any, timeout: float = 10.0, start: int = 0) -> dict[str, Any]:
        """The first frame (from number ``start``, counted like ``received``) satisfying
        ``pred``; TimeoutError otherwise."""

        async def _wait() -> dict[str, Any]:
            async with self._cond:
                i = start
                while True:
                    i = max(i, self.dropped)
                    while i < self.received:
                        frame = self.frames[i - self.dropped]
                        if pred(frame):
                            return frame
                        i += 1
                    if self.close_code is not None:
                        raise ConnectionError(f"socket closed ({self.close_code})")
                    await self._cond.wait()

        return await asyncio.wait_for(_wait(), timeout)

    async def wait_version(self, version: int, timeout: float = 10.0) -> None:
        async def _wait() -> None:
            async with self._cond:
                while self.version < version:
                    if self.close_code is not None:
                        raise ConnectionError(f"socket closed ({self.close_code})")
                    await self._cond.wait()

        await asyncio.wait_for(_wait(), timeout)

    async def wait_closed(self, timeout: float = 10.0) -> int | None:
        if self._reader is not None:
            await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.close_code

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)


async def play_one(
    socks: list[SeatSocket], rng: Any, timeout: float = 10.0
) -> dict[str, Any] | None:
    """The seat to act plays a uniformly chosen legal move; returns its ack (None: nobody can
    move). Waits until every socket saw the new version."""
    version = max(s.version for s in socks)
    await asyncio.gather(*(s.wait_version(version, timeout) for s in socks))
    actor = next((s for s in socks if s.legal_moves), None)
    if actor is None:
        return None
    mark = len(actor.frames)
    move = rng.choice(actor.legal_moves)
    mid = await actor.send_move(move, version)
    ack = await actor.wait_for(lambda f: f.get("move_id") == mid, timeout, mark)
    if ack.get("type") == "accepted":
        await asyncio.gather(*(s.wait_version(ack["version"], timeout) for s in socks))
    ack = dict(ack)
    ack["_move"] = move
    return ack


def move_log(db: TempDatabase, table_id: str) -> list[tuple[int, str]]:
    """(version, move_id) of the table's move log, in version order."""
    rows = db.query(
        "SELECT version, move_id FROM move WHERE table_id = %s ORDER BY version", table_id
    )
    return [(int(v), str(m)) for v, m in rows]


def table_version(db: TempDatabase, table_id: str) -> int:
    return int(db.query("SELECT version FROM game_table WHERE id = %s", table_id)[0][0])
