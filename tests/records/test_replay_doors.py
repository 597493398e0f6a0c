"""Stepping through a replay asks the database nothing but the caller's session: who may look is
believed for a few seconds (app/records/doors.py), the position's bytes are kept, and both are
answered on the event loop. The host's own change of `public_replay` counts at once; one made by
another instance counts within the door's seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.clock import ManualClock
from app.records import repository as repo
from app.records.doors import DOOR_SECONDS
from tests.conftest import Player
from tests.records.helpers import finish


@pytest.fixture
def statements(app: Any, client: TestClient) -> Iterator[list[str]]:
    """Every SQL statement the app sends while the test runs.

    The deadline sweeper stands still meanwhile: every two seconds it reads `game_table`, and a
    run slow enough to span one of its sweeps would count that read as the replay's."""
    seen: list[str] = []

    def heard(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    sweeper = app.state.sweeper
    assert client.portal is not None
    sweeping = sweeper.loop.started
    client.portal.call(sweeper.stop)
    engine = app.state.db.engine
    event.listen(engine, "before_cursor_execute", heard)
    yield seen
    event.remove(engine, "before_cursor_execute", heard)
    if sweeping:
        client.portal.call(sweeper.start)


def _tables_read(statements: list[str]) -> list[str]:
    touched = ("game_table", "seat", "imported_replay")
    return [s for s in statements if any(name in s for name in touched)]


@pytest.fixture
def still(app: Any) -> ManualClock:
    """The records' clock stands still: a door read is believed however slow the run is."""
    clock = ManualClock()
    app.state.records.clock = clock
    return clock


def test_a_second_step_reads_only_the_session(
    app: Any, client: TestClient, ann: Player, bob: Player, statements: list[str], still: Any
) -> None:
    tid = finish(app, client, [ann, bob], seed=7)
    for n in (3, 4):
        r = client.get(f"/api/replays/{tid}/positions/{n}", headers=ann.headers)
        assert r.status_code == 200
    statements.clear()
    for n in (3, 4, 3):
        r = client.get(f"/api/replays/{tid}/positions/{n}", headers=ann.headers)
        assert r.status_code == 200 and r.json()["position"] == n
    assert _tables_read(statements) == []
    page = client.get(f"/api/replays/{tid}", headers=bob.headers)
    statements.clear()
    again = client.get(f"/api/replays/{tid}", headers=bob.headers)
    assert again.content == page.content and _tables_read(statements) == []


def test_the_kept_door_still_turns_strangers_away(
    app: Any,
    client: TestClient,
    ann: Player,
    bob: Player,
    eve: Player,
    statements: list[str],
    still: Any,
) -> None:
    tid = finish(app, client, [ann, bob], seed=7)
    assert client.get(f"/api/replays/{tid}/positions/2", headers=ann.headers).status_code == 200
    statements.clear()
    for headers in (eve.headers, {}):
        r = client.get(f"/api/replays/{tid}/positions/2", headers=headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert _tables_read(statements) == []


def test_the_hosts_own_choice_counts_at_once(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    tid = finish(app, client, [ann, bob], seed=7)
    path = f"/api/replays/{tid}/positions/1"
    put = f"/api/tables/{tid}/public_replay"
    assert client.put(put, json={"public_replay": True}, headers=ann.headers).status_code == 200
    assert client.get(path, headers=eve.headers).status_code == 200
    assert client.put(put, json={"public_replay": False}, headers=ann.headers).status_code == 200
    assert client.get(path, headers=eve.headers).status_code == 404


def test_another_instances_choice_counts_within_the_doors_seconds(
    app: Any, client: TestClient, ann: Player, bob: Player, eve: Player
) -> None:
    clock = ManualClock()
    app.state.records.clock = clock
    tid = finish(app, client, [ann, bob], seed=7)
    path = f"/api/replays/{tid}/positions/1"
    put = f"/api/tables/{tid}/public_replay"
    assert client.put(put, json={"public_replay": True}, headers=ann.headers).status_code == 200
    assert client.get(path, headers=eve.headers).status_code == 200
    with app.state.db.session() as s:  # another instance makes it private again
        t = repo.table(s, tid)
        assert t is not None
        repo.set_public_replay(s, t, False)
    clock.advance(DOOR_SECONDS - 0.5)
    assert client.get(path, headers=eve.headers).status_code == 200  # believed a little longer
    clock.advance(0.5)
    r = client.get(path, headers=eve.headers)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert client.get(path, headers=ann.headers).status_code == 200
