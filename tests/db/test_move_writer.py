"""The moves' writer (app/tables/writer.py, SQLite's move store): moves judged on the event loop,
written together in one transaction, each as it would be alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app import rules
from app.db.gate import writer_gate
from app.db.models import GameTable, MoveRecord
from app.realtime.hub import Notice
from app.tables import play
from app.tables.store import MoveConflict, MoveWrite
from app.tables.writer import SqliteMoves
from tests.conftest import Player
from tests.db.test_concurrency import legal_at, log_length, started_table


def judged(svc: Any, tid: str, move_id: str, expected: int | None = None) -> tuple[Any, Any]:
    """The update and log row of seat 0's first legal move on the table as this process knows
    it (``expected``: another version, to make the update change nothing)."""
    fresh = svc.cache.get(tid)
    move = rules.encode_move(rules.legal_moves(fresh.state, 0)[0])
    tr = rules.apply_move(fresh.state, 0, move)
    version = fresh.version if expected is None else expected
    params, row, _ = play.move_written(
        tid, 0, move_id, version, fresh.seats_version, tr, None, None
    )
    return params, row


def writer_of(svc: Any) -> SqliteMoves:
    return SqliteMoves(svc.db, lambda conn, table_id: None)


async def written(writer: SqliteMoves, params: Any, row: Any) -> int | None:
    """1 when the store wrote the move, None when it answered a conflict (nothing written)."""
    try:
        notice = await writer.store(MoveWrite(params, row, finished=False))
    except MoveConflict:
        return None
    assert isinstance(notice, Notice) and notice.version == params["p_version"]
    return 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # (the writer is SQLite's)
def test_moves_queued_together_are_written_in_one_transaction_each_on_its_own(
    client: TestClient, app: Any, ann: Player, bob: Player
) -> None:
    """Moves that wait while a transaction is written go into the next one together; a move
    whose update changes nothing (a version moved on, the seats changed) or whose log row breaks
    a unique key (a move_id played) leaves nothing written and is answered a conflict; the others
    commit, and read back as a move written through Core does."""
    svc = app.state.service
    tables = [started_table(client, ann, bob) for _ in range(4)]
    for n, tid in enumerate(tables):  # a first move each: the process knows the tables now
        version, moves = legal_at(client, ann, tid)
        body = {"move": moves[0], "expected_version": version, "move_id": f"first{n}"}
        assert client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers).is_success
    jobs = [judged(svc, tables[0], "warm"), judged(svc, tables[0], "a")]
    jobs.append(judged(svc, tables[1], "b"))
    jobs.append(judged(svc, tables[2], "stale", expected=0))  # the table is at 1
    jobs.append(judged(svc, tables[2], "first2"))  # that move_id is in the log already
    jobs.append(judged(svc, tables[2], "c"))
    seats_changed = judged(svc, tables[3], "d")  # its log row is new, its update finds no row
    seats_changed[0]["p_seats"] += 1
    jobs.append(seats_changed)
    writer = writer_of(svc)
    gate = writer_gate(svc.db.url)

    async def scenario() -> list[int | None]:
        gate.enter()  # the writer's transactions wait: every move is queued meanwhile
        writes = [asyncio.ensure_future(written(writer, *job)) for job in jobs]
        await asyncio.sleep(0)  # each task puts its move in the queue
        gate.leave()
        return list(await asyncio.gather(*writes))

    try:
        results = asyncio.run(scenario())
    finally:
        writer.stop()
    # in the order they came: "a" was judged at version 1 too, and "warm" took it
    assert results == [1, None, 1, None, None, 1, None]
    assert [log_length(svc, t) for t in tables] == [2, 2, 2, 1]  # the first move, one more
    assert all(svc.replay_matches(t) for t in tables)
    with svc.db.session() as s:
        for (params, row), result in zip(jobs, results, strict=True):
            if result == 1:
                stored = s.scalars(
                    select(MoveRecord).where(
                        MoveRecord.table_id == row["table_id"], MoveRecord.version == row["version"]
                    )
                ).one()
                assert stored.move == row["move"] and stored.events == row["events"]
                assert stored.move_id == row["move_id"] and stored.seat == row["seat"]
                assert stored.created_at.replace(tzinfo=None) == row["created_at"].replace(
                    tzinfo=None
                )
                table = s.get(GameTable, row["table_id"])
                assert table is not None and table.state == params["p_state"]
                assert table.version == params["p_version"] and table.clock == params["p_clock"]
                assert table.status == params["p_status"] and table.deadline == params["p_deadline"]
                assert table.updated_at.replace(tzinfo=None) == params["p_at"].replace(tzinfo=None)
    assert writer.batches <= 2  # the first one taken (and what was queued with it), then the rest


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_writer_asks_for_a_checkpoint_every_so_many_moves(
    client: TestClient, app: Any, ann: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = app.state.service
    monkeypatch.setattr("app.tables.writer.CHECKPOINT_MOVES", 2)
    tables = [started_table(client, ann, bob) for _ in range(3)]
    for n, tid in enumerate(tables):  # a first move each: the process knows the tables now
        version, moves = legal_at(client, ann, tid)
        body = {"move": moves[0], "expected_version": version, "move_id": f"first{n}"}
        assert client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers).is_success
    writer = writer_of(svc)

    async def one(tid: str) -> int | None:
        return await written(writer, *judged(svc, tid, "next"))

    try:
        assert [asyncio.run(one(tables[0]))] == [1]
        assert writer.checkpointer.runs == 0  # one move: not yet
        assert asyncio.run(one(tables[1])) == 1
    finally:
        writer.stop()  # (a checkpoint asked for runs before the thread ends)
    assert writer.checkpointer.runs == 1


def test_an_sqlite_too_old_for_the_batch_statements_is_known() -> None:
    from app.tables.batch import batch_supported

    assert batch_supported((3, 35, 0)) and batch_supported((3, 45, 1))
    assert not batch_supported((3, 34, 1))
    assert batch_supported()  # (this machine's)


def test_a_move_judged_illegal_writes_nothing_and_is_refused_after_a_read(
    client: TestClient, app: Any, ann: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move judged illegal (or not the seat's to make) never reaches the store: its refusal is
    checked with a read, which does not queue at the writer gate (a client could send such
    moves in a loop). A move on a table this process does not know is read, then stored."""
    svc = app.state.service
    tid = started_table(client, ann, bob)
    stored: list[str] = []
    real = svc.play.store.store

    async def recording(move: MoveWrite) -> Any:
        stored.append(move.line["move_id"])
        return await real(move)

    monkeypatch.setattr(svc.play.store, "store", recording)

    def post(who: Player, move: Any, version: int, move_id: str) -> int:
        body = {"move": move, "expected_version": version, "move_id": move_id}
        r = client.post(f"/api/tables/{tid}/moves", json=body, headers=who.headers)
        return r.status_code

    version, moves = legal_at(client, ann, tid)
    svc.cache.forget(tid)  # not known here: read first
    assert post(ann, moves[0], version, "first") == 200
    assert stored == ["first"]
    assert svc.cache.get(tid) is not None  # known now: the next move is judged from memory
    version, moves = legal_at(client, ann, tid)
    mover, other = (ann, bob) if moves else (bob, ann)
    version, moves = legal_at(client, mover, tid)
    assert post(other, moves[0], version, "not-mine") >= 400  # not the other's move to make
    assert post(mover, {"kind": "no_such_move"}, version, "illegal") >= 400
    assert stored == ["first"]
    assert writer_gate(svc.db.url).waiting == 0
    assert log_length(svc, tid) == 1
