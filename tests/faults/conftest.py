"""A fresh Postgres database per module; each test starts (and kills) its own server."""

from __future__ import annotations

import pytest

from app.devtools.stack import TempDatabase
from tests.conftest import need_postgres as require_postgres


@pytest.fixture(scope="module")
def pg_db():
    require_postgres()
    with TempDatabase(prefix="emara_fault") as db:
        yield db
