"""Migrations upgrade and downgrade cleanly on a real Postgres (and on SQLite)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from app.db.migrate import downgrade, upgrade
from app.db.models import Base
from tests.conftest import postgres_database

OURS = {"profile", "game_table", "seat", "move"}


def tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def columns(url: str, table: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {c["name"] for c in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def round_trip(url: str) -> None:
    upgrade(url)
    assert tables(url) >= OURS
    # the migrated schema has every column the models use
    for name, table in Base.metadata.tables.items():
        if name in OURS:
            assert {c.name for c in table.columns} <= columns(url, name), name
    assert "bot_level" in columns(url, "seat")
    downgrade(url, "base")
    assert tables(url) == set()
    upgrade(url)
    assert tables(url) >= OURS


@pytest.mark.postgres
def test_upgrade_downgrade_postgres() -> None:
    with postgres_database() as url:
        round_trip(url)


def test_upgrade_downgrade_sqlite(tmp_path: Path) -> None:
    round_trip(f"sqlite:///{tmp_path / 'm.db'}")
