"""A real stack on loopback, shared by the tests and bench/ (it is not itself a test).

- ``TempDatabase``: a fresh Postgres database per run, migrated, dropped afterwards.
- ``ServerProcess``: one uvicorn process of the app on a free loopback port, its log in a file.

The players and their sockets are in ``app.devtools.players``. Everything talks to 127.0.0.1
only and every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx

from app.devtools.leftovers import die_with_parent, owned_name

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get(
    "EMARA_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres"
)
ORIGIN_HOST = "127.0.0.1"
# The signing key every server of this process's stacks shares: random per process (the server
# refuses a key written in the repository).
STACK_SECRET_KEY = secrets.token_urlsafe(32)


# -- Postgres -----------------------------------------------------------------------------------


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:
        return False


class TempDatabase:
    """``with TempDatabase() as db: db.url`` — created, migrated, dropped (even if in use)."""

    def __init__(self, prefix: str = "emara_t", migrate: bool = True) -> None:
        # Named for this process, so that a run that is killed has it swept (leftovers.py).
        self.name = owned_name(prefix.removeprefix("emara_").replace("_", ""))
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
    _http: httpx.Client | None = field(default=None, repr=False)

    def http(self) -> httpx.Client:
        """One kept-alive client for this server (closed with it): a test that sends hundreds
        of requests pays for one connection, not one client and connection a request. It keeps
        no cookies: each request says who it is."""
        if self._http is None:
            no_cookies = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
            self._http = httpx.Client(
                base_url=self.base, trust_env=False, timeout=30, cookies=no_cookies
            )
        return self._http

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
            "EMARA_SECRET_KEY": STACK_SECRET_KEY,
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
            # It ends with whoever started it, even one that was killed (leftovers.py).
            preexec_fn=die_with_parent(),
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
        if self._http is not None:
            self._http.close()
            self._http = None
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
