"""Shared fixtures: a migrated database on SQLite and on Postgres, the app, players, a live server.

Postgres: each test run creates its own database on 127.0.0.1:5432 (user postgres, trust auth) and
drops it at the end. When Postgres is missing the Postgres variants skip loudly, except with
CI=true, where that is a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from sqlalchemy import create_engine, inspect, text

from app.config import Settings
from app.db.migrate import upgrade
from app.devtools.leftovers import owned_name, sweep_databases
from tests.finish_check import CHECK, engine_modules_holding
from tests.frame_check import CHECK as FRAMES

warnings.filterwarnings("ignore", message=".*httpx2.*")

# hypothesis: a quick profile by default, the thorough one in CI (HYPOTHESIS_PROFILE chooses).
# A property test names its thorough count through ``examples``; the quick profile runs an
# eighth of it (at least three).
HYPOTHESIS_PROFILE = os.environ.get(
    "HYPOTHESIS_PROFILE", "thorough" if os.environ.get("CI", "").lower() == "true" else "quick"
)
hypothesis.settings.register_profile("quick", deadline=None, derandomize=True)
hypothesis.settings.register_profile("thorough", deadline=None)
hypothesis.settings.load_profile(HYPOTHESIS_PROFILE)


def examples(thorough: int) -> int:
    """How many examples a property test runs under the profile in force."""
    return thorough if HYPOTHESIS_PROFILE == "thorough" else max(3, thorough // 8)


from fastapi.testclient import TestClient  # noqa: E402

PG_HOST = os.environ.get("EMARA_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("EMARA_TEST_PG_PORT", "5432"))
PG_USER = os.environ.get("EMARA_TEST_PG_USER", "postgres")
IN_CI = os.environ.get("CI", "").lower() == "true"
ROOT = Path(__file__).resolve().parent.parent


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """The browser tests' Playwright (one per test process, tests/browser/conftest.py) leaves its
    event loop marked as running in this thread; a test that does not use the browser runs (its
    fixtures' set-up and teardown included) with the mark taken away, so that it may call
    asyncio.run(), and the mark is put back after it."""
    loop = asyncio._get_running_loop()
    aside = loop is not None and "browser" not in getattr(item, "fixturenames", ())
    if aside:
        asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        if aside and loop is not None and not loop.is_closed():
            asyncio._set_running_loop(loop)


@pytest.fixture(autouse=True)
def finished_games_add_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every outcome the engine computes during a test (the finish of a game, the views and
    ``rules.outcome`` of finished games, live servers in threads included) is checked: each
    player's points by source sum to the tracks and to the final tracks (tests/finish_check.py).
    A test in which one does not add up fails."""
    import app.rules
    import app.rules.simulate
    import app.rules.turn
    import app.rules.view
    from app.rules import scoring

    original = scoring.compute_outcome
    finishing = CHECK.wrap(original, finishing=True)
    other = CHECK.wrap(original, finishing=False)
    for mod in engine_modules_holding(original):
        monkeypatch.setattr(mod, "compute_outcome", finishing if mod is app.rules.turn else other)
    seen = len(CHECK.failures)
    yield
    failures = CHECK.failures[seen:]
    if failures:
        pytest.fail("points by source do not add up: " + "; ".join(failures[:5]), pytrace=False)


@pytest.fixture(autouse=True)
def sent_frames_follow_the_schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every frame a table socket sends during a test (live servers in threads included) is
    validated against docs/frames.schema.json (tests/frame_check.py): a test in which one does
    not match fails."""
    from app.realtime.socket import Connection

    original = Connection.__init__

    def init(self: Connection, transport: Any, *args: Any, **kwargs: Any) -> None:
        FRAMES.watch(transport)
        original(self, transport, *args, **kwargs)

    monkeypatch.setattr(Connection, "__init__", init)
    seen = len(FRAMES.failures)
    yield
    failures = FRAMES.failures[seen:]
    if failures:
        pytest.fail("sent frames do not follow the schema: " + "; ".join(failures[:5]), False)


# The failures of first tries that passed on the second (tests/browser/conftest.py reruns a
# browser test once), printed at the end of the run — the rerun plugin lists only their names —
# so that each is fixed at its cause.
FIRST_TRIES: list[tuple[str, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":
        FIRST_TRIES.append((report.nodeid, report.longreprtext[-4000:]))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for nodeid, why in FIRST_TRIES:
        terminalreporter.write_sep("-", f"first try of {nodeid} (it passed on its second)")
        terminalreporter.write_line(why)
    swept = terminalreporter.config.stash.get(SWEPT, [])
    if swept:
        terminalreporter.write_line(
            f"databases left behind by stopped runs, dropped at the start: {len(swept)}"
        )
    if FRAMES.checked:
        terminalreporter.write_line(
            f"socket frames checked against docs/frames.schema.json: {FRAMES.checked}, "
            f"{len(FRAMES.failures)} did not match"
        )
    if CHECK.outcomes or CHECK.stored:
        terminalreporter.write_line(
            f"points by source checked: {CHECK.finishes} games finished in the test process, "
            f"{CHECK.outcomes - CHECK.finishes} more outcomes, {CHECK.stored} stored finished "
            f"games of server subprocesses; {len(CHECK.failures)} did not add up"
        )


def _pg_admin_dsn() -> str:
    return f"host={PG_HOST} port={PG_PORT} user={PG_USER} dbname=postgres connect_timeout=3"


def postgres_available() -> str | None:
    """None if Postgres answers, else why not."""
    try:
        import psycopg

        with psycopg.connect(_pg_admin_dsn(), autocommit=True) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # pragma: no cover - depends on the machine
        return f"{type(exc).__name__}: {exc}"
    return None


def need_postgres() -> None:
    why = postgres_available()
    if why is None:
        return
    message = f"PostgreSQL on {PG_HOST}:{PG_PORT} is not reachable ({why})"
    if IN_CI:
        pytest.fail(f"{message} — mandatory when CI=true", pytrace=False)
    warnings.warn(f"SKIPPING Postgres tests: {message}", stacklevel=1)
    pytest.skip(f"SKIPPED LOUDLY: {message}")


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh, empty database; dropped afterwards."""
    import psycopg

    need_postgres()
    name = owned_name("test")
    with psycopg.connect(_pg_admin_dsn(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://{PG_USER}@{PG_HOST}:{PG_PORT}/{name}"
    finally:
        with psycopg.connect(_pg_admin_dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# Where the database matters, a test runs on both databases: the folders of the database layer,
# of several instances on one Postgres and of faults, and every module or test marked
# ``both_databases`` (the move's write paths, the sweeper's and the queues' claims, the upserts
# and prebuilt statements that differ by dialect). Every other test runs once, on the default
# (the embedded SQLite file).
BOTH_DATABASES = frozenset(
    {
        "db",
        "multi",
        "faults",
        "api/test_game.py",  # a move over HTTP: the one-statement and direct paths, the writer
        "api/test_locks.py",
        "api/test_undo_server.py",
        "ws/test_socket.py",  # a move over the socket, and the relay's hint
        "pace/test_pace_api.py",  # deadlines: the sweeper's claim (SKIP LOCKED on Postgres)
        "mail/test_notifications.py",  # the outbox: its claim and its insert differ by dialect
        "analysis/test_queue.py",  # the queue's lease
        "solo/test_race.py",
        "chat/test_chat_api.py",  # presence's upsert, the chat page's prebuilt statements
    }
)
BOTH = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def runs_on_both(definition: Any) -> bool:
    where = Path(str(definition.path)).resolve().relative_to(ROOT / "tests")
    return (
        where.parts[0] in BOTH_DATABASES
        or where.as_posix() in BOTH_DATABASES
        or definition.get_closest_marker("both_databases") is not None
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    chosen = any(
        "database_url" in str(m.args[0]) for m in metafunc.definition.iter_markers("parametrize")
    )
    if "database_url" in metafunc.fixturenames and not chosen:
        params = BOTH if runs_on_both(metafunc.definition) else ["sqlite"]
        metafunc.parametrize("database_url", params, indirect=True, scope="session")


# A module that starts servers or databases in processes of their own (app/devtools/stack.py).
STACK_NAMES = ("ServerProcess", "TempDatabase", "subprocess")


# The modules that take longest (a browser clicking through games), started first: the workers
# take modules in this order, and a long one begun last would leave the other worker idle.
LONGEST_FIRST = (
    "browser/test_play.py",
    "browser/test_a11y.py",
    "browser/test_guide.py",  # a guided game clicked through past round 1 (English, desktop)
    "browser/test_protect_screens.py",  # every new screen in three languages, two sizes
    "browser/test_guide_phone.py",  # the same in Czech on a phone
    "browser/test_solo_game.py",
    "browser/test_reach.py",
    "browser/test_ui_details.py",
    "browser/test_protect.py",
    "browser/test_tooltips.py",
    "browser/test_chat.py",
    "browser/test_pace_web.py",
    "browser/test_log_banner.py",
    "browser/test_replay.py",
    "browser/test_endscreen.py",
    "browser/test_breakdown.py",
    "analysis/test_queue.py",
    "bots/test_api.py",
    "mail/test_notifications.py",
)


def _start_order(item: pytest.Item) -> int:
    path = Path(str(item.path)).resolve()
    if not path.is_relative_to(ROOT / "tests"):  # (a run of a test file made elsewhere)
        return len(LONGEST_FIRST) + 1
    where = path.relative_to(ROOT / "tests").as_posix()
    if where in LONGEST_FIRST:
        return LONGEST_FIRST.index(where)
    if item.get_closest_marker("browser") or item.get_closest_marker("stack"):
        return len(LONGEST_FIRST)
    return len(LONGEST_FIRST) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``postgres`` on every item that runs on Postgres; ``stack`` on those whose module starts
    processes of its own (``make test-quick`` leaves both out, with the browser's); the longest
    modules first (a stable sort: each module's tests keep their order)."""
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is not None and spec.params.get("database_url") == "postgres":
            item.add_marker(pytest.mark.postgres)
        module = getattr(item, "module", None)
        if module is not None and any(hasattr(module, name) for name in STACK_NAMES):
            item.add_marker(pytest.mark.stack)
    items.sort(key=_start_order)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` hands out the modules longest first, one ahead per worker
    (tests/scheduling.py); any other mode is xdist's own."""
    if config.getoption("dist") != "loadfile":
        return None
    from tests.scheduling import InOrderFiles

    return InOrderFiles(config, log)


def pytest_configure(config: pytest.Config) -> None:
    # SIGTERM (a CI timeout, `kill`) ends the run as Ctrl-C does: the fixtures' teardowns run,
    # stopping servers and dropping databases.
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, interrupt)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Once per run (not per worker): drop the databases that killed runs left behind."""
    if hasattr(session.config, "workerinput") or postgres_available() is not None:
        return
    gone = sweep_databases(_pg_admin_dsn())
    if gone:
        session.config.stash[SWEPT] = gone


SWEPT = pytest.StashKey[list[str]]()


@pytest.fixture(scope="session")
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A migrated database: the embedded SQLite file, or a Postgres database of this run."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("sqlite") / "emara.db"
        url = f"sqlite:///{path}"
        upgrade(url)
        yield url
        close_shared_app(url)
    else:
        with postgres_database() as url:
            upgrade(url)
            yield url
            close_shared_app(url)  # (its background loops stop before the database goes)


# The worker's started app for each database (``shared_app``), closed with its database.
SHARED_APPS: dict[str, Any] = {}


def close_shared_app(url: str) -> None:
    shared = SHARED_APPS.pop(url, None)
    if shared is not None:
        shared.close()


def wipe(url: str) -> None:
    engine = create_engine(url)
    try:
        names = [n for n in inspect(engine).get_table_names() if n != "alembic_version"]
        with engine.begin() as conn:
            if url.startswith("postgresql"):
                if names:
                    listed = ", ".join(f'"{n}"' for n in names)
                    conn.execute(text(f"TRUNCATE {listed} CASCADE"))
            else:
                conn.execute(text("PRAGMA foreign_keys=OFF"))
                for n in names:
                    conn.execute(text(f'DELETE FROM "{n}"'))
    finally:
        engine.dispose()


# Rate limits for the suite: one address (the test client) creates many profiles and fuzzes many
# table ids, so the limits sit far above what any test does; tests of the limits pass their own.
SUITE_RATE_LIMITS = {
    "rate_profile_create": "100000/minute",
    "rate_table_create": "100000/minute",
    "rate_invite_misses": "100000/minute",
    "rate_recover_misses": "100000/minute",
    "rate_host_acts": "100000/minute",
    "rate_email_send": "100000/minute",
    "rate_email_link_misses": "100000/minute",
    "rate_passkey_signin": "100000/minute",
    "rate_record_import": "100000/minute",
    "rate_analysis_request": "100000/minute",
    "rate_replay_read": "100000/minute",
    "rate_device_code_misses": "100000/minute",
    "rate_invite_target_misses": "100000/minute",
    "rate_recover_target_misses": "100000/minute",
    "rate_device_code_target_misses": "100000/minute",
    "rate_http_moves": "100000/minute",
    "rate_email_signin_strangers": "100000/minute",
    "rate_report": "100000/minute",
    "rate_block": "100000/minute",
    # and a refusal is answered at once (tests of the hold set their own delay)
    "rate_refusal_delay_seconds": 0.0,
}


# The suite's signing key: random per run (a key written in the repository is refused at start).
SUITE_SECRET_KEY = secrets.token_urlsafe(32)


# Games bots play alone are paced per process (a CPU budget, app/bots/runner.py); the suite plays
# them at full speed unless a test of the budget sets its own pace.
SUITE_BOT_PACE = {"bot_unattended_move_seconds": 0.0}


# The test process keeps Python's own collector policy: a suite that freezes every second would
# hide its tests' garbage from their `gc.collect()` (tests/test_collector.py tests the policy).
SUITE_COLLECTOR = {"gc_freeze_seconds": 0.0}


def make_settings(url: str, tmp_path: Path, **extra: Any) -> Settings:
    extra = {**SUITE_RATE_LIMITS, **SUITE_BOT_PACE, **SUITE_COLLECTOR, **extra}
    return Settings(
        database_url=url,
        data_dir=tmp_path / "data",
        secret_key=SUITE_SECRET_KEY,
        **extra,
    )


def assert_replays(app: Any) -> None:
    """Every game in the database replays from its seed to exactly its stored snapshot
    (tests/records/test_stored_games.py runs it over games of every kind)."""
    from sqlalchemy import select

    from app.db.models import GameTable

    service = app.state.service
    with service.db.session() as s:
        ids = list(s.scalars(select(GameTable.id).where(GameTable.state.is_not(None))))
    for table_id in ids:
        assert service.replay_matches(table_id), f"table {table_id}: replay differs from snapshot"


def assert_records_round_trip(app: Any) -> None:
    """Every finished game in the database has a record that, exported as JSON and imported
    again, replays to exactly its stored snapshot and move log (docs/records.md)."""
    import json

    from sqlalchemy import select

    from app import rules
    from app.db.models import GameTable
    from app.records.intake import parse_record
    from app.records.replay import verify
    from app.records.repository import standing_moves
    from app.records.service import table_record
    from app.tables.status import TableStatus

    with app.state.service.db.session() as s:
        tables = list(s.scalars(select(GameTable).where(GameTable.status == TableStatus.FINISHED)))
        for t in tables:
            exported = json.loads(json.dumps(table_record(s, t)))
            done = verify(parse_record(exported))
            assert rules.encode_state(done.final) == t.state, f"table {t.id}: record differs"
            logged = [m.events for m in standing_moves(s, t.id, t.version)]
            assert done.events == logged, f"table {t.id}: replayed events differ"


@pytest.fixture
def shared_app(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The worker's started app on ``database_url`` (tests/shared_app.py), reset: rows wiped,
    state as at its start. It lives as long as the database fixture does."""
    from app.main import create_app
    from tests.shared_app import SharedApp

    wipe(database_url)
    shared = SHARED_APPS.get(database_url)
    if shared is None:
        settings = make_settings(database_url, tmp_path_factory.mktemp("app"))
        shared = SHARED_APPS[database_url] = SharedApp(create_app(settings))
    else:
        shared.reset()
    return shared


@pytest.fixture
def app(shared_app: Any) -> Any:
    """The app, started, on an empty database and as it was at its start."""
    return shared_app.app


@pytest.fixture
def client(shared_app: Any) -> TestClient:
    """The app's client (no cookies), its lifespan running."""
    return shared_app.client  # type: ignore[no-any-return]


@dataclass
class Player:
    id: str
    name: str
    token: str
    recovery_code: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def new_player(client: TestClient, name: str) -> Player:
    r = client.post("/api/profiles", json={"name": name})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    body = r.json()
    return Player(body["id"], body["name"], body["token"], body["recovery_code"])


@pytest.fixture
def ann(client: TestClient) -> Player:
    return new_player(client, "Ann")


@pytest.fixture
def bob(client: TestClient) -> Player:
    return new_player(client, "Bob")


@pytest.fixture
def eve(client: TestClient) -> Player:
    return new_player(client, "Eve")


# ---------------------------------------------------------------------------- live server
@dataclass
class LiveServer:
    app: Any
    host: str
    port: int

    @property
    def http(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://{self.host}:{self.port}"


@contextlib.contextmanager
def serve(application: Any) -> Iterator[LiveServer]:
    """A real uvicorn on a free loopback port, in a thread."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        application, log_level="warning", ws_max_size=1 << 20, lifespan="on", ws="websockets-sansio"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield LiveServer(application, "127.0.0.1", port)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture
def live_factory(database_url: str, tmp_path: Path) -> Iterator[Any]:
    """Start real servers with chosen settings; each is stopped and audited at teardown."""
    from app.main import create_app

    wipe(database_url)
    stack = contextlib.ExitStack()
    apps: list[Any] = []

    def start(**extra: Any) -> LiveServer:
        extra.setdefault("allowed_origins", ["http://allowed.example"])
        application = create_app(make_settings(database_url, tmp_path, **extra))
        apps.append(application)
        return stack.enter_context(serve(application))

    with stack:
        yield start
    for application in apps:
        application.state.db.dispose()


@pytest.fixture
def live(live_factory: Any) -> LiveServer:
    return live_factory()  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------- game helpers
def pick_move(legal: list[dict[str, Any]], rng: Any) -> dict[str, Any]:
    """A legal move that keeps a game moving: mostly end the turn when allowed, else any."""
    ending = [m for m in legal if m["kind"] == "end_turn"]
    if ending and rng.random() < 0.7:
        return ending[0]
    return rng.choice(legal)


class SecretCanary:
    """Checks that what one recipient received holds none of the secrets it must not see.

    The secrets of every version of the game come from replaying the stored move log from the
    seed: other seats' hands, every deck order, the favor draw and discard piles, the boxed and
    stacked advisors, the event deck order, the seed and the RNG state.
    """

    def __init__(self, app: Any, table_id: str) -> None:
        from sqlalchemy import select

        from app import rules
        from app.db.models import GameTable, MoveRecord

        with app.state.service.db.session() as s:
            t = s.get(GameTable, table_id)
            assert t is not None and t.seed is not None
            self.seed = t.seed
            records = list(
                s.scalars(
                    select(MoveRecord)
                    .where(MoveRecord.table_id == table_id)
                    .order_by(MoveRecord.version)
                )
            )
            options = t.engine_options
        state = rules.new_game(self.seed, options)
        self.trees = [rules.encode_state(state)]
        # What anyone could see at some version: a sequence that was secret once and public later
        # (advisors refilling a display in stack order, say) is no evidence of a leak.
        self.public = [self._dump(rules.view_for(state, None))]
        for r in records:
            state = rules.apply_move(state, r.seat, r.move).state
            self.trees.append(rules.encode_state(state))
            self.public.append(self._dump(rules.view_for(state, None)))

    @staticmethod
    def _dump(value: Any) -> str:
        import json

        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    def forbidden_for(self, seat: int | None) -> tuple[set[str], set[str]]:
        forbidden: set[str] = set()
        own_hands: set[str] = set()
        for tree in self.trees:
            for n, p in enumerate(tree["ps"]):
                if n == seat:
                    own_hands.add(self._dump(p["hand"]))
                elif len(p["hand"]) >= 2:
                    forbidden.add(self._dump(p["hand"]))
                if len(p["deck"]) >= 2:
                    forbidden.add(self._dump(p["deck"]))
            for seq in (
                tree["favor"]["pile"],
                tree["favor"]["discard"],
                tree["boxed_advisors"],
                tree["b_stack"],
                tree["event_deck"],
            ):
                if len(seq) >= 2:
                    forbidden.add(self._dump(seq))
        forbidden = {
            secret
            for secret in forbidden - own_hands
            if not any(secret in public for public in self.public)
        }
        return forbidden, own_hands

    def check(self, seat: int | None, received: list[Any]) -> int:
        """Assert over everything ``seat`` (None: a spectator) received; returns items checked."""
        forbidden, own_hands = self.forbidden_for(seat)
        banned_keys = {"seed", "rng", "draws", "recovery_code", "engine_options"}
        # public as counts, secret as contents
        banned_lists = {"deck", "pile", "discard", "boxed_advisors", "b_stack", "event_deck"}
        banned_lists |= {"state", "hands"}

        def walk(node: Any, path: str) -> None:
            if isinstance(node, dict):
                for key, value in node.items():
                    assert key not in banned_keys, f"secret key {key!r} at {path}"
                    if isinstance(value, list | dict):
                        assert key not in banned_lists, f"secret {key!r} at {path}"
                    if isinstance(value, str):  # a favor token is an int; a profile token a str
                        assert key != "token", f"a profile token at {path}"
                    if key == "hand":
                        assert path.endswith(".me"), f"a hand outside 'me' at {path}"
                        assert seat is not None, "a spectator received a hand"
                        assert self._dump(value) in own_hands or len(value) < 2
                    if key == "private":
                        assert value == seat, f"another seat's private event at {path}"
                    if key == "me" and value is not None:
                        assert value.get("seat") == seat, f"another seat's 'me' at {path}"
                    walk(value, f"{path}.{key}")
            elif isinstance(node, list):
                for i, value in enumerate(node):
                    if isinstance(value, list) and len(value) >= 2:
                        assert self._dump(value) not in forbidden, f"a secret order at {path}"
                    walk(value, f"{path}[{i}]")

        for item in received:
            text = self._dump(item)
            assert str(self.seed) not in text, "the seed left the server"
            walk(item, "$")
            for secret in forbidden:
                # lists are compared as dumped JSON; the pattern ignores key order inside dicts
                assert secret not in text, f"a secret sequence was sent: {secret}"
        return len(received)
