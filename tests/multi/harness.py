"""A real stack on loopback for scale, fault and multi-instance tests (and bench/load.py).

- ``TempDatabase``: a fresh Postgres database per run, migrated, dropped afterwards.
- ``ServerProcess``: one uvicorn process of the app on a free loopback port, its log in a file.
- ``Player``: a profile with its token; ``seat_table`` makes a started table of N players.
- ``SeatSocket``: one WebSocket client of a seat (hello/since, move frames, updates).

Everything talks to 127.0.0.1 only and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get(
    "EMARA_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres"
)
ORIGIN_HOST = "127.0.0.1"


# -- Postgres -----------------------------------------------------------------------------------


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:
        return False


def require_postgres() -> None:
    """Skip loudly without Postgres; under CI=true a missing Postgres is a failure."""
    import pytest

    if postgres_available():
        return
    message = f"PostgreSQL not reachable at {PG_ADMIN_URL}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (mandatory when CI=true)")
    pytest.skip(message)


def require_server_app() -> None:
    """The app must import; a failure here is a real error, not a skip."""
    import app.main  # noqa: F401


class TempDatabase:
    """``with TempDatabase() as db: db.url`` — created, migrated, dropped (even if in use)."""

    def __init__(self, prefix: str = "emara_t", migrate: bool = True) -> None:
        self.name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        self.migrate = migrate
        base = PG_ADMIN_URL.rsplit("/", 1)[0]
        self.libpq_url = f"{base}/{self.name}"
        self.url = self.libpq_url.replace("postgresql://", "postgresql+psycopg://", 1)

    def __enter__(self) -> TempDatabase:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        if self.migrate:
            # In a subprocess: alembic's env may configure logging or settings globally.
            code = "import sys; from app.db.migrate import upgrade; upgrade(sys.argv[1])"
            subprocess.run(
                [sys.executable, "-c", code, self.url],
                cwd=ROOT,
                check=True,
                timeout=120,
                env=_child_env({}),
                capture_output=True,
            )
        return self

    def __exit__(self, *exc: object) -> None:
        self.drop()

    def drop(self) -> None:
        import psycopg

        with (
            contextlib.suppress(Exception),
            psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as conn,
        ):
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.libpq_url, autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(sql, params or None)
            return list(cur.fetchall()) if cur.description else []

    def terminate_app_backends(self) -> int:
        """``pg_terminate_backend`` every other connection to this database."""
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (self.name,),
            ).fetchall()
        return sum(1 for (ok,) in rows if ok)


# -- server processes ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((ORIGIN_HOST, 0))
        return int(s.getsockname()[1])


def _child_env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMARA_")}
    env.update(extra)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


@dataclass
class ServerProcess:
    """``uvicorn app.main:app`` on 127.0.0.1:<port>; ``log_path`` keeps stdout+stderr."""

    database_url: str
    log_path: Path
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    workers: int = 1
    extra_args: list[str] = field(default_factory=list)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{ORIGIN_HOST}:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://{ORIGIN_HOST}:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base + path

    def settings_env(self) -> dict[str, str]:
        env = {
            "EMARA_DATABASE_URL": self.database_url,
            "EMARA_SECRET_KEY": "test-secret-key-for-the-stack-0123456789",
            "EMARA_DATA_DIR": str(self.log_path.parent / "data"),
        }
        env.update(self.env)
        return env

    def start(self, wait: float = 60.0) -> ServerProcess:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        cmd = [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:app",
            "--host",
            ORIGIN_HOST,
            "--port",
            str(self.port),
            "--timeout-graceful-shutdown",
            "5",
            # As deployed (Makefile, Dockerfile): frames of a few kB are not worth compressing.
            "--ws-per-message-deflate",
            "false",
            *self.extra_args,
        ]
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=_child_env(self.settings_env()),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self.wait_ready(wait)
        return self

    def wait_ready(self, wait: float) -> None:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log_tail()}")
            try:
                r = httpx.get(self.base + "/openapi.json", timeout=2.0)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server not ready in {wait}s:\n{self.log_tail()}")

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def kill9(self) -> None:
        self.signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)

    def stop(self, timeout: float = 15.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, n: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-n:])

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


SERVER_ERROR_MARKERS = ("Traceback (most recent call last)", "Exception in ASGI", " 500 ")


def server_errors(log: str) -> list[str]:
    """Lines of a server log that show an unhandled error."""
    return [
        line
        for line in log.splitlines()
        if any(m in line for m in SERVER_ERROR_MARKERS) or line.startswith("ERROR:")
    ]


def unhandled_errors(log: str) -> list[str]:
    """Lines showing a request or socket the server failed on (a 500, a crashed handler);
    errors the server handled and logged on purpose (a lost database connection) are not."""
    markers = ("Exception in ASGI application", '" 500 ', "Internal Server Error")
    return [line for line in log.splitlines() if any(m in line for m in markers)]


# -- HTTP clients -------------------------------------------------------------------------------


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
    client: httpx.Client, seats: int = 4, options: dict[str, Any] | None = None
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
    move: dict[str, Any],
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


class SeatSocket:
    """One seat's socket. ``frames`` collects every frame; ``version`` follows the table.

    With ``keep``, only about the last ``keep`` frames stay in ``frames`` (a load run would
    otherwise hold every frame it ever received); ``received`` counts them all, and the ``start``
    of ``wait_for`` counts from the first frame ever received.
    """

    def __init__(
        self,
        ws_base: str,
        table_id: str,
        token: str,
        origin: str | None = None,
        keep: int | None = None,
    ) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.origin = origin or ws_base.replace("ws://", "http://")
        self.token = token
        self.keep = keep
        self.dropped = 0  # frames let go of (``keep``)
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        self.version = -1
        self.legal_moves: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.close_code: int | None = None
        self._cond = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, since: int | None = None, timeout: float = 10.0) -> SeatSocket:
        import websockets

        self.ws = await asyncio.wait_for(
            websockets.connect(
                self.url,
                origin=self.origin,
                additional_headers={"Authorization": f"Bearer {self.token}"},
                max_size=2**24,
                open_timeout=timeout,
            ),
            timeout,
        )
        self.close_code = None
        self._reader = asyncio.create_task(self._read())
        if since is None and self.version >= 0:
            since = self.version
        await self.send({"type": "hello", "since": since})
        return self

    async def send(self, frame: dict[str, Any] | str | bytes) -> None:
        data = frame if isinstance(frame, str | bytes) else json.dumps(frame)
        await self.ws.send(data)

    async def send_move(
        self, move: dict[str, Any], expected_version: int | None = None, move_id: str | None = None
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

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                try:
                    frame = json.loads(raw)
                except ValueError:
                    frame = {"type": "_unparsable", "raw": str(raw)[:200]}
                self._absorb(frame)
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
            self.close_code = getattr(self.ws, "close_code", None) or 1006
            async with self._cond:
                self._cond.notify_all()

    def _absorb(self, frame: dict[str, Any]) -> None:
        # Only state frames move the socket's version: an ack or an error names a version too,
        # but carries no view and no legal moves.
        if frame.get("type") not in ("snapshot", "update"):
            return
        v = frame.get("version")
        if isinstance(v, int) and v >= self.version:
            self.version = v
            if "legal_moves" in frame:
                self.legal_moves = list(frame.get("legal_moves") or [])
            if "view" in frame:
                self.view = frame["view"]

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
