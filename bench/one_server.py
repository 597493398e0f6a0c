"""One quiet server of the app on a fresh database, for the benches that time single steps
(bench/restart.py, bench/requests.py): Postgres (a database made and dropped) or an embedded
SQLite file, the loopback limits of bench/load.py, warnings only in its log."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from load import LOOPBACK_LIMITS, migrated_sqlite

from app.devtools.stack import ServerProcess, TempDatabase


@contextlib.contextmanager
def one_server(work: Path, sqlite: bool, prefix: str) -> Iterator[tuple[str, int]]:
    """(base URL, pid) of a started server; stopped, and its database dropped, on exit."""
    db: TempDatabase | None = None
    if sqlite:
        url = migrated_sqlite(work / "emara.db")
    else:
        db = TempDatabase(prefix=prefix).__enter__()
        url = db.url
    server = ServerProcess(
        url,
        work / "server.log",
        env={"EMARA_LOG_LEVEL": "warning", **LOOPBACK_LIMITS},
        extra_args=["--log-level", "warning", "--no-access-log"],
    )
    try:
        server.start()
        assert server.proc is not None
        yield server.base, server.proc.pid
    finally:
        server.stop()
        if db is not None:
            db.drop()
