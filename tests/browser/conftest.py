"""Browser tests: a real uvicorn subprocess on a free loopback port (temp SQLite database) and
Debian's Chromium driven by Playwright. Missing Chromium/Playwright skips loudly; with CI=true it
fails instead."""

from __future__ import annotations

import asyncio
import json
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess

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


# A browser test that failed runs once more (pytest-rerunfailures), then fails the run if it
# fails again. Headless Chromium on a loaded machine now and then drops what a test waits for
# (a notification missing from its list, a hover the emulated mouse left behind); a second try
# tells that apart from a broken screen, which fails both. A test that passed only on its second
# try is listed under RERUN in the summary (`-rR`), so a flaky test is seen and fixed, not hidden.
BROWSER_RERUNS = 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("rerunfailures"):
        return
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS))


# Tests that need a finished game play it over HTTP as fast as the server answers, far past a
# person's move rate (tests/api/test_http_move_rate.py tests the rate itself).
PLAYED_OVER_HTTP = {"EMARA_RATE_HTTP_MOVES": "100000/minute"}
# Tests that need a finished game, not the playing of it, have the server play it in its own
# process in one request (app/devtools/routes.py; ``finish_in_server``).
FINISHED_IN_SERVER = {"EMARA_DEVTOOLS_ROUTES": "true"}


def finish_in_server(server: ServerProcess, table_id: str, seed: int = 0) -> int:
    """Play the started table's game to its end in the server's process (the engine's moves,
    stored as the server stores moves; its sockets hear of it); the table's version after."""
    r = server.http().post(f"/api/devtools/tables/{table_id}/play_out", json={"seed": seed})
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The app under uvicorn in a subprocess, with its own migrated SQLite database."""
    need_browser()
    from app.db.migrate import upgrade

    tmp = tmp_path_factory.mktemp("browser-server")
    db_url = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db_url)
    # The push opt-in test subscribes a stub endpoint on loopback (the tests-only setting).
    env = {"EMARA_PUSH_ALLOW_LOOPBACK_HTTP": "true", **PLAYED_OVER_HTTP, **FINISHED_IN_SERVER}
    with ServerProcess(
        db_url, tmp / "server.log", extra_args=["--log-level", "warning"], env=env
    ) as srv:
        yield srv


# One browser per test process, its contexts handed out again (tests/browser/contexts.py). The
# sync API leaves its event loop marked as running in this thread while it is open, which would
# break every later test that calls asyncio.run(): tests/conftest.py's ``pytest_runtest_protocol``
# takes the mark away around every test that does not use the browser.
@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    need_browser()
    from playwright.sync_api import sync_playwright

    from tests.browser.contexts import ContextPool

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pool = ContextPool(b)
        _still_by_default(b, pool.new_context)
        loop = asyncio._get_running_loop()
        try:
            yield b
        finally:
            # The last test of the process may not have used the browser (its mark is aside).
            asyncio._set_running_loop(loop)
            b.close()


def _still_by_default(b: Any, made: Any) -> None:
    """Pages ask for reduced motion unless a test says otherwise (``reduced_motion=...``):
    the client then draws no transition or animation (static/css/app.css), so a click waits for
    no moving marker to come to rest. The motion itself is tested where it matters
    (tests/browser/test_since.py opens contexts both ways).

    The service worker is not installed unless a test says so (``service_workers="allow"``):
    installed, it fetches and caches the whole client in every new context, which is a third of
    the browser's work for a context that opens a page or two (measured: 12 page loads in six
    contexts, 14 CPU-s blocked, 18 to 25 allowed). tests/browser/test_pwa.py allows it: the
    worker, its cache and the push messages are tested there."""

    def new_context(**kwargs: Any) -> Any:
        kwargs.setdefault("reduced_motion", "reduce")
        kwargs.setdefault("service_workers", "block")
        return made(**kwargs)

    b.new_context = new_context


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


_CHECKED_TABLES: set[str] = set()


@pytest.fixture(autouse=True)
def stored_finished_games_add_up(request: pytest.FixtureRequest) -> Iterator[None]:
    """The server runs in a subprocess, out of reach of tests/conftest.py's check: after each test
    that used it, every game it has finished since is read back from its database and checked
    the same way (each player's points by source sum to the tracks and the final tracks)."""
    yield
    if "server" not in request.fixturenames:
        return
    srv: ServerProcess = request.getfixturevalue("server")
    found = finished_stored_games_problems(srv.database_url)
    if found:
        pytest.fail("points by source do not add up: " + "; ".join(found[:5]), pytrace=False)


def finished_stored_games_problems(database_url: str) -> list[str]:
    from sqlalchemy import bindparam, create_engine, text

    from app import rules
    from tests.finish_check import CHECK, problems

    # Only the finished tables not checked yet are read: the server's database gathers the games
    # of every test of the run, and reading (and decoding) every state after every test cost more
    # with each test.
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            finished = conn.execute(
                text("SELECT id FROM game_table WHERE status = 'finished' AND state IS NOT NULL")
            ).scalars()
            fresh = [str(i) for i in finished if str(i) not in _CHECKED_TABLES]
            rows = (
                conn.execute(
                    text("SELECT id, state FROM game_table WHERE id IN :ids").bindparams(
                        bindparam("ids", expanding=True)
                    ),
                    {"ids": fresh},
                ).all()
                if fresh
                else []
            )
    finally:
        engine.dispose()
    found: list[str] = []
    for table_id, blob in rows:
        tree = json.loads(blob) if isinstance(blob, str) else blob
        state = rules.decode_state(tree)
        out = rules.outcome(state)
        if out is None:
            continue
        _CHECKED_TABLES.add(str(table_id))
        CHECK.stored += 1
        found += [f"table {table_id}: {x}" for x in problems(state.tree, out)]
    return found
