"""A clocked app: the server's time is a ManualClock the test moves; no background sweeps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests import games
from tests.conftest import Player, assert_replays, make_settings, new_player, wipe

START = 1_800_000_000.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def clocked(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Any]:
    from app.main import create_app

    wipe(database_url)
    application = create_app(
        make_settings(database_url, tmp_path, deadline_sweep_seconds=0), clock=clock
    )
    yield application
    assert_replays(application)
    application.state.db.dispose()


@pytest.fixture
def tc(clocked: Any) -> Iterator[TestClient]:
    with TestClient(clocked) as c:
        yield c


@pytest.fixture
def ada(tc: TestClient) -> Player:
    return new_player(tc, "Ada")


@pytest.fixture
def ben(tc: TestClient) -> Player:
    return new_player(tc, "Ben")


def open_game(
    tc: TestClient, players: list[Player], pace: dict[str, Any], **options: Any
) -> dict[str, Any]:
    """A table of ``players`` at ``pace`` (seat 0 starts), joined and started: the started table."""
    t = games.open_table(tc, players, {"pace": pace, **options})
    started: dict[str, Any] = games.start(tc, t["id"], players[0])
    return started


def game(tc: TestClient, tid: str, who: Player) -> dict[str, Any]:
    r = tc.get(f"/api/tables/{tid}/game", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def end_turn(tc: TestClient, tid: str, who: Player) -> dict[str, Any]:
    """Play moves for ``who`` until their turn passes (end_turn when allowed, else the first)."""
    g = game(tc, tid, who)
    seat = g["seat"]
    for n in range(40):
        legal = g["legal_moves"]
        assert legal, "not this player's turn"
        ending = [m for m in legal if m["kind"] == "end_turn"]
        move = ending[0] if ending else legal[0]
        r = tc.post(
            f"/api/tables/{tid}/moves",
            json={"move": move, "expected_version": g["version"], "move_id": f"m{g['version']}"},
            headers=who.headers,
        )
        assert r.status_code == 200, r.text
        g = game(tc, tid, who)
        if not g["legal_moves"] or seat not in to_act(g):
            return g
        assert n < 39
    return g


def to_act(g: dict[str, Any]) -> list[int]:
    return list(g["view"]["to_act"])
