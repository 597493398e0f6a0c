"""Backups while people play, restored into a fresh database that a server then serves.

The server runs in a thread and moves go to it over HTTP from another; the backup (the admin
command's own functions) runs meanwhile: on SQLite a move is acknowledged after the backup took
its snapshot and before it copies a page, on Postgres while pg_dump runs.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.admin.backup import bring_back, take
from app.admin.target import target_of
from app.devtools.players import Player, SeatedTable, get_game, http_move, seat_table
from app.main import create_app
from tests.conftest import LiveServer, assert_replays, make_settings, pick_move, postgres_database

pytestmark = pytest.mark.both_databases


class Mover:
    """Plays the tables' games over HTTP in a thread; every acknowledged (table, version)."""

    def __init__(self, base: str, tables: list[SeatedTable]) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        self.tables = tables
        self.acks: list[tuple[str, int]] = []
        self.moved = threading.Condition()
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run)

    def _turn(self, t: SeatedTable, rng: random.Random) -> bool:
        for p in t.players:
            g = get_game(self.client, t.id, p)
            if g["status"] != "playing":
                return False
            if g["legal_moves"]:
                r = http_move(self.client, t.id, p, pick_move(g["legal_moves"], rng), g["version"])
                assert r.status_code == 200, r.text
                with self.moved:
                    self.acks.append((t.id, r.json()["version"]))
                    self.moved.notify_all()
                return True
        return False

    def _run(self) -> None:
        rng = random.Random(7)
        try:
            while not self.stop.is_set():
                if not any([self._turn(t, rng) for t in self.tables]):
                    return
        except BaseException as exc:
            self.error = exc
            with self.moved:
                self.moved.notify_all()

    def wait_for_more(self, than: int) -> None:
        with self.moved:
            assert self.moved.wait_for(
                lambda: len(self.acks) > than or self.error is not None, timeout=60
            )
        assert self.error is None, self.error

    def __enter__(self) -> Mover:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=60)
        self.client.close()


@contextlib.contextmanager
def fresh_database(database_url: str, tmp_path: Path) -> Iterator[str]:
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored' / 'emara.db'}"
    else:
        with postgres_database() as url:
            yield url


def logged_versions(url: str, table_id: str) -> set[int]:
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(text("SELECT version FROM move WHERE table_id = :t"), {"t": table_id})
            return {int(v) for (v,) in rows}
    finally:
        engine.dispose()


def test_a_backup_taken_during_play_restores_every_acknowledged_move(
    live: LiveServer, database_url: str, tmp_path: Path
) -> None:
    with httpx.Client(base_url=live.http, timeout=30) as c:
        tables = [seat_table(c, 2), seat_table(c, 3)]
    dump = tmp_path / "emara.backup"
    with Mover(live.http, tables) as mover:
        mover.wait_for_more(than=5)
        with mover.moved:
            before = list(mover.acks)  # acknowledged before the backup began

        def meanwhile() -> None:  # the snapshot is taken (SQLite), pg_dump runs (Postgres)
            mover.wait_for_more(than=len(mover.acks))

        take(target_of(database_url), dump, meanwhile)
        with mover.moved:
            during = len(mover.acks) - len(before)
    assert mover.error is None, mover.error
    assert during >= 1  # moves went on while the backup ran
    assert dump.stat().st_mode & 0o077 == 0  # owner-only

    with fresh_database(database_url, tmp_path) as restored:
        bring_back(target_of(restored), dump)
        for table_id, version in before:
            assert version in logged_versions(restored, table_id), (table_id, version)
        app = create_app(make_settings(restored, tmp_path / "again"))
        with TestClient(app) as client:
            assert_replays(app)  # every game's log replays to its stored snapshot
            for t in tables:
                served = _served(client, t)
                versions = logged_versions(restored, t.id)
                assert served["version"] == max(versions, default=0)
                assert served["version"] == len(versions)  # no gap in the log
            # and play goes on from the restored database
            t = tables[0]
            for p in t.players:
                g = client.get(f"/api/tables/{t.id}/game", headers=p.headers).json()
                if g["legal_moves"]:
                    body = {
                        "move": g["legal_moves"][0],
                        "expected_version": g["version"],
                        "move_id": "after-restore",
                    }
                    r = client.post(f"/api/tables/{t.id}/moves", json=body, headers=p.headers)
                    assert r.status_code == 200, r.text
                    break
            else:
                pytest.fail("nobody can move at the restored table")
        app.state.db.dispose()


def _served(client: TestClient, t: SeatedTable) -> dict[str, Any]:
    p: Player = t.players[0]
    r = client.get(f"/api/tables/{t.id}/game", headers=p.headers)
    assert r.status_code == 200, r.text
    return dict(r.json())
