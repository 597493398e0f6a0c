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


def open_campaign_duplicates(url: str) -> None:
    """Migration 0200 keeps the oldest open campaign game of a profile; later ones become
    high-score games, then the unique index holds."""
    from sqlalchemy import text

    upgrade(url, "0100_solo")
    engine = create_engine(url)
    try:
        with engine.begin() as c:
            c.execute(
                text(
                    "INSERT INTO profile (id, name, recovery_hash, created_at) "
                    "VALUES ('p1', 'Ann', 'h', '2026-11-01 10:00:00+00')"
                )
            )
            for table_id, created, finished in (
                ("a", "2026-11-01 10:00:00+00", None),
                ("b", "2026-11-01 11:00:00+00", None),
                ("c", "2026-11-01 12:00:00+00", "2026-11-01 13:00:00+00"),
            ):
                c.execute(
                    text(
                        "INSERT INTO solo_game (table_id, profile_id, mode, building_start, "
                        "created_at, finished_at) VALUES (:t, 'p1', 'campaign', 40, :c, :f)"
                    ),
                    {"t": table_id, "c": created, "f": finished},
                )
        upgrade(url)
        with engine.begin() as c:
            modes = dict(c.execute(text("SELECT table_id, mode FROM solo_game")).all())
        assert modes == {"a": "campaign", "b": "high_score", "c": "campaign"}
        index_names = {i["name"] for i in inspect(engine).get_indexes("solo_game")}
        assert "uq_solo_game_open_campaign" in index_names
    finally:
        engine.dispose()
    downgrade(url, "0100_solo")


@pytest.mark.postgres
def test_open_campaign_duplicates_postgres() -> None:
    with postgres_database() as url:
        open_campaign_duplicates(url)


def test_open_campaign_duplicates_sqlite(tmp_path: Path) -> None:
    open_campaign_duplicates(f"sqlite:///{tmp_path / 'd.db'}")


def seat_move_ids(url: str) -> None:
    """Migration 0300: two seats may log one move_id; one seat may not twice. Downgrading
    renames the second seat's id so the per-table key holds again, and upgrading works again."""
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    upgrade(url)
    engine = create_engine(url)
    move = (
        "INSERT INTO move (table_id, version, seat, move, events, move_id, created_at) "
        "VALUES ('t1', :v, :s, '{}', '[]', :m, '2026-11-24 07:00:00+00')"
    )
    try:
        with engine.begin() as c:
            c.execute(
                text(
                    "INSERT INTO profile (id, name, recovery_hash, created_at) "
                    "VALUES ('p1', 'Ann', 'h', '2026-11-24 07:00:00+00')"
                )
            )
            c.execute(
                text(
                    "INSERT INTO game_table (id, invite_code, host_profile_id, seat_count, "
                    "options, status, version, created_at, updated_at) VALUES ('t1', 'i', 'p1', "
                    "2, '{}', 'playing', 2, '2026-11-24 07:00:00+00', '2026-11-24 07:00:00+00')"
                )
            )
            sv = c.execute(text("SELECT seats_version FROM game_table WHERE id = 't1'")).scalar()
            assert sv == 0  # the column's default for rows written without it
            c.execute(text(move), {"v": 1, "s": 0, "m": "m1"})
            c.execute(text(move), {"v": 2, "s": 1, "m": "m1"})
        with pytest.raises(IntegrityError), engine.begin() as c:
            c.execute(text(move), {"v": 3, "s": 1, "m": "m1"})
        engine.dispose()
        downgrade(url, "0200_solo_one_open_campaign")
        assert "seats_version" not in columns(url, "game_table")
        with engine.begin() as c:
            ids = dict(c.execute(text("SELECT seat, move_id FROM move")).all())
        assert ids == {0: "m1", 1: "s1:m1"}
        with pytest.raises(IntegrityError), engine.begin() as c:
            c.execute(text(move), {"v": 3, "s": 0, "m": "s1:m1"})
        engine.dispose()
        upgrade(url)
        assert "seats_version" in columns(url, "game_table")
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_seat_move_ids_postgres() -> None:
    with postgres_database() as url:
        seat_move_ids(url)


def test_seat_move_ids_sqlite(tmp_path: Path) -> None:
    seat_move_ids(f"sqlite:///{tmp_path / 's.db'}")
