"""Seats are judged in the database: every act that changes a table's seats (or judges by them,
a start) reads the table first with its row lock and its seats after it, in one transaction, so
two processes cannot interleave a start and a leave (tests/multi/test_start_leave_race.py races
two real instances).

Here, in one process with two table services on one database (as two instances would be): the
statements of every seat act in order (Postgres), and a leave sent while another service deals
the game, which waits for the deal and is refused (both databases).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, event, text

from app.db.gate import writer_gate
from app.db.session import Database
from app.errors import WrongStatus
from app.realtime.hub import Hub
from app.tables.lobby import lobby_table, seat_person
from app.tables.service import TableService
from app.tables.status import TableStatus
from tests.conftest import Player

GUARD = 30.0
SEAT = re.compile(r"\bseat\b")
WRITES_TABLE = re.compile(r"^\s*(UPDATE game_table\b|DELETE FROM game_table\b)")
WRITES_SEAT = re.compile(r"^\s*(INSERT INTO seat\b|UPDATE seat\b|DELETE FROM seat\b)")
LOCKS_TABLE = re.compile(r"^\s*SELECT\b.*\bFROM game_table\b.*FOR NO KEY UPDATE\s*$", re.S)


@contextmanager
def transactions(db: Database) -> Iterator[list[list[str]]]:
    """The statements of every transaction on ``db`` while inside, one list per transaction
    (statements outside a transaction, the reads of ``Database.read``, are not kept)."""
    done: list[list[str]] = []
    open_: dict[int, list[str]] = {}

    def begin(conn: Connection) -> None:
        open_[id(conn)] = []

    def end(conn: Connection) -> None:
        statements = open_.pop(id(conn), None)
        if statements:
            done.append(statements)

    def before(conn: Connection, cursor: Any, statement: str, *_: Any) -> None:
        if id(conn) in open_:
            open_[id(conn)].append(statement)

    hooks: list[tuple[str, Callable[..., None]]] = [
        ("begin", begin),
        ("commit", end),
        ("rollback", end),
        ("before_cursor_execute", before),
    ]
    for name, fn in hooks:
        event.listen(db.engine, name, fn)
    try:
        yield done
    finally:
        for name, fn in hooks:
            event.remove(db.engine, name, fn)


def unlocked_seat_work(statements: list[str]) -> list[str]:
    """In a transaction that changes seats or a table (other than opening one), the statements
    on seats, and the writes to the table, that come before the table's locking read."""
    writes = [q for q in statements if WRITES_SEAT.match(q) or WRITES_TABLE.match(q)]
    if not writes or statements[0].lstrip().startswith("INSERT INTO game_table"):
        return []
    early = []
    for q in statements:
        if LOCKS_TABLE.match(q):
            return early
        if SEAT.search(q) or WRITES_TABLE.match(q):
            early.append(q)
    return early or ["(no locking read of the table)"]


def _ok(r: Any) -> None:
    assert r.status_code == 200, r.text


def test_every_seat_act_reads_the_table_with_its_lock_before_the_seats(
    client: TestClient, app: Any, database_url: str, ann: Player, bob: Player, eve: Player
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the row lock is Postgres's; SQLite's transaction holds the write lock")
    svc: TableService = app.state.service
    t = client.post(
        "/api/tables", json={"seats": 3, "options": {"start_player": 0}}, headers=ann.headers
    ).json()
    tid = t["id"]
    url = f"/api/tables/{tid}"
    join = {"invite_code": t["invite_code"]}
    with transactions(svc.db) as done:
        _ok(client.post(f"{url}/join", json=join, headers=bob.headers))
        _ok(client.put(f"{url}/name", json={"name": "Evening"}, headers=ann.headers))
        _ok(client.post(f"{url}/seats/2/bot", json={"level": "random"}, headers=ann.headers))
        _ok(client.delete(f"{url}/seats/2/bot", headers=ann.headers))
        _ok(client.post(f"{url}/leave", headers=bob.headers))
        _ok(client.post(f"{url}/join", json=join, headers=bob.headers))
        with svc.db.session() as s:  # an invited person's accept seats them so (app/invitations)
            seat_person(s, lobby_table(s, tid), eve.id, None)
        _ok(client.post(f"{url}/start", headers=ann.headers))
        _ok(client.post(f"{url}/seats/1/bot", json={"level": "random"}, headers=bob.headers))
        _ok(client.post(f"{url}/seats/1/reclaim", headers=bob.headers))
    acts = [x for x in done if any(WRITES_SEAT.match(q) or WRITES_TABLE.match(q) for q in x)]
    assert len(acts) >= 10, acts
    assert [early for x in acts if (early := unlocked_seat_work(x))] == []


@contextmanager
def dealing_held(svc: TableService) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The service's next start stops as it draws the seed (its seats judged, its transaction
    open) until ``go`` is set; ``dealing`` says it got there."""
    dealing, go = threading.Event(), threading.Event()
    drawn = svc.lobbies.new_seed

    def held_seed() -> int:
        dealing.set()
        assert go.wait(GUARD)
        return 7

    svc.lobbies.new_seed = held_seed
    try:
        yield dealing, go
    finally:
        go.set()
        svc.lobbies.new_seed = drawn


def waits_for_a_lock(svc: TableService) -> Callable[[], bool]:
    """Whether a transaction of this database waits for another now: a Postgres backend
    waiting for a lock, or a thread waiting at SQLite's writer gate."""
    if svc.db.postgres:

        def pg() -> bool:
            with svc.db.read() as conn:
                q = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                return bool(conn.scalar(text(q + "AND wait_event_type = 'Lock'")))

        return pg
    gate = writer_gate(svc.db.url)
    return lambda: gate.waiting > 0


def test_a_leave_on_another_instance_while_the_game_is_dealt_waits_and_is_refused(
    client: TestClient, app: Any, database_url: str, ann: Player, bob: Player
) -> None:
    svc: TableService = app.state.service
    other = TableService(Database(database_url), Hub())  # a second instance's service
    try:
        t = client.post("/api/tables", json={"seats": 2}, headers=ann.headers).json()
        tid = t["id"]
        join = {"invite_code": t["invite_code"]}
        _ok(client.post(f"/api/tables/{tid}/join", json=join, headers=bob.headers))
        out: dict[str, Any] = {}

        def run(name: str, call: Callable[[], Any]) -> threading.Thread:
            def work() -> None:
                try:
                    out[name] = call()
                except Exception as exc:
                    out[name] = exc

            thread = threading.Thread(target=work)
            thread.start()
            return thread

        with dealing_held(svc) as (dealing, go):
            start = run("start", lambda: svc.lobbies._start(ann.id, tid))
            assert dealing.wait(GUARD)
            leave = run("leave", lambda: other.lobbies._leave(bob.id, tid))
            # The leave either waits for the deal (the seats' lock) or, were the seats judged
            # in each process, would be done already: the deal goes on once one of them holds.
            waiting, deadline = waits_for_a_lock(svc), time.monotonic() + GUARD
            while leave.is_alive() and not waiting():
                assert time.monotonic() < deadline, "the leave neither ended nor waited"
                leave.join(0.005)
            go.set()
            start.join(GUARD)
            leave.join(GUARD)
        assert not isinstance(out["start"], Exception), out
        assert isinstance(out["leave"], WrongStatus), out
        lobby = client.get(f"/api/tables/{tid}", headers=bob.headers).json()
        assert lobby["status"] == TableStatus.PLAYING
        assert [x["taken"] for x in lobby["seats"]] == [True, True]
        assert lobby["my_seat"] is not None
    finally:
        other.db.dispose()
