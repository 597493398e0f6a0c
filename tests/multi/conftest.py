"""Two uvicorn processes sharing one fresh Postgres database (module scope)."""

from __future__ import annotations

import pytest

from app.devtools.stack import ServerProcess, TempDatabase
from tests.conftest import need_postgres as require_postgres


@pytest.fixture(scope="module")
def pg_db():
    require_postgres()
    with TempDatabase() as db:
        yield db


@pytest.fixture(scope="module")
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
