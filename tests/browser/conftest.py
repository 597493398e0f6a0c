"""Browser tests: a real uvicorn subprocess on a free loopback port (temp SQLite database) and
Debian's Chromium driven by Playwright. Missing Chromium/Playwright skips loudly; with CI=true it
fails instead."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("EMARA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
IN_CI = os.environ.get("CI", "").lower() == "true"


def _missing() -> str | None:
    if not Path(CHROMIUM).is_file():
        return f"Chromium not found at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"the playwright package is not installed ({exc})"
    return None


def need_browser() -> None:
    why = _missing()
    if why is None:
        return
    if IN_CI:
        pytest.fail(f"{why} — mandatory when CI=true", pytrace=False)
    warnings.warn(f"SKIPPING browser tests: {why}", stacklevel=1)
    pytest.skip(f"SKIPPED LOUDLY: {why}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.base = base
        self.proc = proc
        self.log = log

    def url(self, path: str = "/") -> str:
        return self.base + path


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app under uvicorn in a subprocess, with its own migrated SQLite database."""
    need_browser()
    from app.db.migrate import upgrade

    tmp = tmp_path_factory.mktemp("browser-server")
    db_url = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db_url)
    port = _free_port()
    env = {
        **os.environ,
        "EMARA_DATABASE_URL": db_url,
        "EMARA_DATA_DIR": str(tmp),
        "EMARA_SECRET_KEY": "browser-test-secret-key-0123456789abcdef",
    }
    log = tmp / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the server did not start:\n" + log.read_text(errors="replace"))
        time.sleep(0.2)
    try:
        yield Server(base, proc, log)
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        if proc.poll() is None:
            proc.kill()


# Module scope: the sync API runs an event loop in this thread while it is open, which would
# break every later test that calls asyncio.run(); closing it after each module frees the thread.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
