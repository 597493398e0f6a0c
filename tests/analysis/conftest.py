"""An app whose analysis worker does not run by itself: tests drive workers directly, with a
bot that counts its calls and a manual clock for the leases."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.analysis.worker import AnalysisWorker
from app.clock import ManualClock
from tests.conftest import Player, make_settings, new_player, wipe

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "records.example.json"


def move_worth(move: dict[str, Any]) -> int:
    """The stand-in's fixed worth of a move (0-6 points), the same wherever it is played."""
    text = json.dumps(move, sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:2], "big") % 7


class CountingBot:
    """A stand-in for the strong bot: cheap, deterministic numbers that depend on the position
    (through the view's tracks) and on the seed, and a count of every call. Its measure of a
    move (``outcomes``) is the position's tracks plus the move's fixed worth (``move_worth``) plus
    a per-sample noise that is the same for every move (common random numbers)."""

    def __init__(self, version: str = "counting-1", samples: int = 4, budget: int = 10**6) -> None:
        self.version = version
        self.samples = samples
        self.budget = budget
        self.expected_calls = 0
        self.preferred_calls = 0
        self.outcome_calls = 0

    def expected(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: int, rng_seed: int
    ) -> list[float]:
        self.expected_calls += 1
        return [
            float(p["cp"] + 2 * p["bp"] + (rng_seed + s) % 5)
            for s, p in enumerate(view["players_state"])
        ]

    def preferred(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng_seed: int
    ) -> dict[str, Any]:
        self.preferred_calls += 1
        return legal[rng_seed % len(legal)]

    def outcomes(
        self,
        view: dict[str, Any],
        seat: int,
        mover: int,
        moves: list[dict[str, Any] | None],
        rng_seed: int,
    ) -> list[list[list[float]]]:
        self.outcome_calls += 1
        base = [float(p["cp"] + 2 * p["bp"]) for p in view["players_state"]]
        noise = [float((rng_seed + i) % 3 - 1) for i in range(self.samples)]
        return [
            [
                [
                    b + noise[i] + (move_worth(move) if move is not None and s == mover else 0)
                    for s, b in enumerate(base)
                ]
                for i in range(self.samples)
            ]
            for move in moves
        ]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def app(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Any]:
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(database_url, tmp_path, analysis_jobs_per_process=0)
    application = create_app(settings, clock=clock)
    bot = CountingBot()
    application.state.analysis.bot_version = bot.version
    application.state.test_bot = bot
    yield application
    application.state.db.dispose()


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@pytest.fixture
def ann(client: TestClient) -> Player:
    return new_player(client, "Ann")


@pytest.fixture
def example() -> dict[str, Any]:
    return dict(json.loads(EXAMPLE.read_text(encoding="utf-8")))


def worker(
    app: Any, clock: ManualClock, bot: CountingBot | None = None, **kw: Any
) -> AnalysisWorker:
    """A worker on the app's database: another instance, as far as the queue can tell."""
    return AnalysisWorker(app.state.db, clock, bot or app.state.test_bot, **kw)


def import_example(client: TestClient, who: Player, record: dict[str, Any]) -> str:
    r = client.post("/api/records", json=record, headers=who.headers)
    assert r.status_code == 201, r.text
    return str(r.json()["replay_id"])
