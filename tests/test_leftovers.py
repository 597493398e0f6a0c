"""A run that is stopped leaves nothing behind (app/devtools/leftovers.py): a run ended by SIGTERM
(a timeout, `kill`) tears down as Ctrl-C does, so its servers stop and its databases are
dropped; a run killed outright takes its servers with it (the kernel's parent-death signal) and
its databases are dropped by the next run's sweep."""

from __future__ import annotations

import os
import select
import selectors
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.devtools.leftovers import abandoned, owned_name, sweep_databases
from tests.conftest import ROOT, _pg_admin_dsn, need_postgres

CHILD = """
import sys
from app.devtools.stack import ServerProcess, TempDatabase


def test_holds_a_server_and_a_database(tmp_path):
    with TempDatabase(prefix="emara_left") as db, ServerProcess(db.url, tmp_path / "s.log") as s:
        print(f"READY {s.proc.pid} {db.name}", flush=True)
        sys.stdin.read()  # until the run is stopped
"""


def databases() -> set[str]:
    import psycopg

    with psycopg.connect(_pg_admin_dsn(), autocommit=True) as conn:
        return {str(r[0]) for r in conn.execute("SELECT datname FROM pg_database")}


def ended_within(pidfd: int, seconds: float) -> bool:
    """Whether the process behind ``pidfd`` has ended, waiting at most ``seconds``."""
    readable, _, _ = select.select([pidfd], [], [], seconds)
    return bool(readable)


@pytest.fixture
def child_run(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int, str]]:
    """A pytest run holding a server process and a Postgres database: (the run, the server's
    pidfd, the database's name)."""
    need_postgres()
    test = tmp_path / "test_child.py"
    test.write_text(CHILD, encoding="utf-8")
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.conftest",
            "--rootdir",
            str(tmp_path),
            str(test),
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.stdout is not None
    seen = b""
    with selectors.DefaultSelector() as sel:
        sel.register(run.stdout, selectors.EVENT_READ)
        while b"READY" not in seen or not seen.rstrip(b" ").endswith(b"\n"):
            assert sel.select(timeout=120), f"the child run did not start: {seen!r}"
            chunk = os.read(run.stdout.fileno(), 4096)
            assert chunk, f"the child run ended early: {seen!r}"
            seen += chunk
    line = next(x for x in seen.decode().splitlines() if x.startswith("READY"))
    _, pid, name = line.split()
    pidfd = os.pidfd_open(int(pid))
    try:
        yield run, pidfd, name
    finally:
        os.close(pidfd)
        if run.poll() is None:
            run.kill()
        run.wait(timeout=30)
        sweep_databases(_pg_admin_dsn())


@pytest.mark.postgres
def test_a_run_stopped_by_sigterm_stops_its_server_and_drops_its_database(child_run) -> None:
    run, server, name = child_run
    assert name in databases()
    run.send_signal(signal.SIGTERM)
    assert run.wait(timeout=60) != 0
    assert ended_within(server, 30), "the server outlived its run"
    assert name not in databases()


@pytest.mark.postgres
def test_a_killed_run_takes_its_server_and_the_next_run_drops_its_database(child_run) -> None:
    run, server, name = child_run
    run.kill()
    run.wait(timeout=30)
    assert ended_within(server, 30), "the server outlived its killed run"
    assert name in databases()  # nobody dropped it yet
    assert name in sweep_databases(_pg_admin_dsn())
    assert name not in databases()


def test_the_sweep_takes_only_databases_whose_owner_is_gone() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        check=True,
        text=True,
    )
    dead = int(done.stdout)
    mine = owned_name("test")
    names = [mine, f"emara_test_{dead}_ab12cd", "emara_other", "postgres", f"x_test_{dead}_ab"]
    assert abandoned(names) == [f"emara_test_{dead}_ab12cd"]
    assert mine.startswith(f"emara_test_{os.getpid()}_")
    with pytest.raises(ValueError):
        owned_name("Bad_Kind")
