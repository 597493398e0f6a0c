"""Two uvicorn processes sharing one fresh Postgres database, started once per test process for
every module of this folder (each start costs two app imports and a migration, 7 to 8 CPU-s).
The tests share them as players share a server: each makes its own profiles and tables and
reads the database only by their ids."""

from __future__ import annotations

import pytest

from app.devtools.stack import ServerProcess, TempDatabase
from tests.conftest import need_postgres as require_postgres


@pytest.fixture(scope="session")
def pg_db():
    require_postgres()
    with TempDatabase() as db:
        yield db


@pytest.fixture(scope="session")
def two_servers(pg_db, tmp_path_factory):
    logs = tmp_path_factory.mktemp("two-servers")
    a = ServerProcess(pg_db.url, logs / "a.log")
    b = ServerProcess(pg_db.url, logs / "b.log")
    a.start()
    try:
        b.start()
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()
