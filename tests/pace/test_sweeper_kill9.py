"""A sweeper process killed (kill -9) in the middle of a hand-over: the claim, the hand-over and
the pace log line were one transaction, so nothing of it stays; another sweeper skips the
claimed row while it is held (it never waits on it) and hands the seat over exactly once after
the death. No move is lost."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.clock import ManualClock
from app.db.models import MoveRecord, Seat, TableEvent
from app.devtools.stack import ROOT, TempDatabase
from tests.conftest import SUITE_SECRET_KEY, make_settings, new_player
from tests.conftest import need_postgres as require_postgres
from tests.pace.conftest import START, end_turn, open_game

pytestmark = pytest.mark.postgres

# Runs one sweep that stops for good inside its transaction, right after the hand-over and the
# pace log line were written (before the commit), and says so on stdout.
STUCK_SWEEPER = """
import sys, threading
from pathlib import Path
import app.tables.sweeper as sw
from app.config import Settings
from app.main import create_app

real = sw.add_event
def stuck(*args, **kwargs):
    real(*args, **kwargs)
    print("claimed", flush=True)
    threading.Event().wait()  # held here until killed
sw.add_event = stuck
app = create_app(Settings(database_url=sys.argv[1], data_dir=Path(sys.argv[2]),
                          secret_key=sys.argv[4], deadline_sweep_seconds=0))
app.state.sweeper.sweep_once(float(sys.argv[3]))
"""


@pytest.fixture
def pg_url() -> Iterator[str]:
    require_postgres()
    with TempDatabase(prefix="emara_sweep") as db:
        yield db.url


def read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    sel = selectors.DefaultSelector()
    assert proc.stdout is not None
    sel.register(proc.stdout, selectors.EVENT_READ)
    ready = sel.select(timeout)
    sel.close()
    return proc.stdout.readline().strip() if ready else ""


def facts(app: Any, tid: str) -> tuple[list[Any], list[Any], list[Any]]:
    with app.state.db.session() as s:
        seats = list(s.execute(select(Seat.seat, Seat.bot_level).where(Seat.table_id == tid)))
        events = list(s.scalars(select(TableEvent.kind).where(TableEvent.table_id == tid)))
        moves = list(
            s.execute(
                select(MoveRecord.version, MoveRecord.move_id)
                .where(MoveRecord.table_id == tid)
                .order_by(MoveRecord.version)
            )
        )
    return sorted(seats), events, moves


def test_kill9_during_a_hand_over_hands_over_once_and_loses_nothing(
    pg_url: str, tmp_path: Path
) -> None:
    from app.main import create_app

    app = create_app(
        make_settings(pg_url, tmp_path, deadline_sweep_seconds=0), clock=ManualClock(START)
    )
    with TestClient(app) as tc:
        ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
        tid = open_game(tc, [ada, ben], {"mode": "turn", "hours": 1})["id"]
        end_turn(tc, tid, ada)  # Ben's hour runs
    seats, events, moves = facts(app, tid)
    assert seats == [(0, None), (1, None)] and events == [] and moves

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            STUCK_SWEEPER,
            pg_url,
            str(tmp_path / "data2"),
            str(START + 3600),
            SUITE_SECRET_KEY,
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        assert read_line(proc, 60) == "claimed"
        # While the dying process holds the claim, another sweeper skips the row at once.
        assert app.state.sweeper.sweep_once(START + 3600) == []
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        assert proc.stdout is not None
        proc.stdout.close()

    # Nothing of the killed transaction stayed.
    assert facts(app, tid) == (seats, events, moves)
    done = app.state.sweeper.sweep_once(START + 3600)
    assert [(d.table_id, d.seat) for d in done] == [(tid, 1)]
    assert app.state.sweeper.sweep_once(START + 3601) == []
    seats_after, events_after, moves_after = facts(app, tid)
    assert seats_after == [(0, None), (1, "greedy")]
    assert events_after == ["seat_timed_out"]
    assert moves_after == moves
    app.state.db.dispose()
