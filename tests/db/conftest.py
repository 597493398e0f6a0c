"""The database tests' own fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from app.db.session import Database


@pytest.fixture
def counter_db(tmp_path: Path) -> Database:
    """A fresh SQLite file with one table, ``counter``, holding the row (1, 0)."""
    database = Database(f"sqlite:///{tmp_path / 'emara.db'}")
    with database.begin() as conn:
        conn.execute(text("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)"))
        conn.execute(text("INSERT INTO counter VALUES (1, 0)"))
    return database
