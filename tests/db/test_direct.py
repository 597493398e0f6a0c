"""The statements a move sends from the event loop to Postgres (app/db/direct.py): parameters in
Postgres's text form, each statement prepared once per connection, a failure raised as
psycopg's error with its connection closed."""

from __future__ import annotations

import asyncio
import enum
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import psycopg
import pytest
from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    func,
    insert,
    select,
)

from app.db.direct import Compiled, DirectPool, libpq_dsn, param_text
from app.db.table_status import TableStatus
from tests.conftest import postgres_database

META = MetaData()
ROW = Table(
    "direct_row",
    META,
    Column("id", String(20), primary_key=True),
    Column("n", Integer),
    Column("x", Float),
    Column("at", DateTime(timezone=True)),
    Column("doc", JSON),
    Column("status", String(16)),
)
INSERT = Compiled(
    insert(ROW)
    .values(
        id=bindparam("p_id"),
        n=bindparam("p_n", type_=Integer),
        x=bindparam("p_x", type_=Float),
        at=bindparam("p_at", type_=ROW.c.at.type),
        doc=bindparam("p_doc", type_=JSON),
        status=bindparam("p_status", type_=ROW.c.status.type),
    )
    .returning(ROW.c.id)
)
BY_N = Compiled(select(ROW.c.id).where(ROW.c.n >= bindparam("p_n"), ROW.c.n <= bindparam("p_n2")))


class Colour(enum.Enum):
    RED = "red"


def test_parameters_are_written_in_postgres_text_form() -> None:
    assert param_text(None) is None
    assert param_text("čaj") == "čaj".encode()
    assert param_text(True) == b"true" and param_text(False) == b"false"
    assert param_text(-42) == b"-42"
    assert param_text(0.1) == b"0.1" and float(param_text(1e300) or b"") == 1e300
    moment = datetime(2026, 11, 29, 3, 4, 5, 678901, tzinfo=UTC)
    assert param_text(moment) == b"2026-11-29T03:04:05.678901+00:00"
    assert param_text(TableStatus.PLAYING) == TableStatus.PLAYING.value.encode()
    assert param_text(Colour.RED) == b"red"
    with pytest.raises(TypeError):
        param_text(b"bytes")
    # libpq takes text parameters up to their first NUL: refused, as psycopg refuses it
    with pytest.raises(psycopg.DataError):
        param_text("move\x00other")


def test_a_statement_is_numbered_in_the_order_its_names_first_appear() -> None:
    assert BY_N.names == ("p_n", "p_n2")
    assert "$1" in BY_N.sql and "$2" in BY_N.sql and "%(" not in BY_N.sql
    # A JSON parameter is its JSON text, None included; the rest in text form.
    values = {"p_id": "a", "p_n": 1, "p_x": None, "p_at": None, "p_doc": None, "p_status": "s"}
    assert INSERT.params(values)[INSERT.names.index("p_doc")] == b"null"
    assert INSERT.params(values)[INSERT.names.index("p_x")] is None
    assert INSERT.name != BY_N.name and INSERT.name.startswith(b"emara_")


@pytest.fixture
def dsn() -> Iterator[str]:
    with postgres_database() as url:
        dsn = libpq_dsn(url)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(
                "CREATE TABLE direct_row (id varchar(20) PRIMARY KEY, n integer, "
                "x double precision, at timestamptz, doc json, status varchar(16))"
            )
        yield dsn


@pytest.mark.postgres
def test_a_statement_counts_its_rows_and_stores_what_psycopg_would(dsn: str) -> None:
    moment = datetime(2026, 11, 29, 3, 4, 5, 678901, tzinfo=timezone(timedelta(hours=2)))
    doc: dict[str, Any] = {"b": [1, None, "ž"], "a": {"1": True}, "z": None}

    async def run() -> tuple[list[int], set[bytes]]:
        pool = DirectPool(dsn, size=2)
        try:
            counts = []
            for n in range(3):
                values = {
                    "p_id": f"r{n}",
                    "p_n": n,
                    "p_x": 0.25 * n,
                    "p_at": moment,
                    "p_doc": doc if n else None,
                    "p_status": TableStatus.PLAYING,
                }
                counts.append(await pool.count(INSERT, values))
            counts.append(await pool.count(BY_N, {"p_n": 1, "p_n2": 2}))
            counts.append(await pool.count(BY_N, {"p_n": 5, "p_n2": 9}))
            # One connection served them all, and prepared each statement on it once.
            assert len(pool._idle) == 1
            return counts, pool._idle[0].prepared
        finally:
            await pool.close()

    counts, prepared = asyncio.run(run())
    assert counts == [1, 1, 1, 2, 0]
    assert prepared == {INSERT.name, BY_N.name}
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT id, n, x, at, doc::text, status FROM direct_row ORDER BY id"
        ).fetchall()
    assert rows[0][4] == "null"  # JSON null, not SQL NULL
    assert rows[1][4] == '{"b":[1,null,"ž"],"a":{"1":true},"z":null}'  # the text, as given
    assert [r[1] for r in rows] == [0, 1, 2] and [r[2] for r in rows] == [0.0, 0.25, 0.5]
    assert all(r[3] == moment for r in rows)
    assert {r[5] for r in rows} == {TableStatus.PLAYING.value}


@pytest.mark.postgres
def test_a_failed_statement_raises_psycopg_s_error_and_its_connection_is_not_reused(
    dsn: str,
) -> None:
    values = {"p_id": "same", "p_n": 1, "p_x": None, "p_at": None, "p_doc": [], "p_status": "s"}

    async def run() -> None:
        pool = DirectPool(dsn, size=1)
        try:
            assert await pool.count(INSERT, values) == 1
            first = pool._idle[0]
            with pytest.raises(psycopg.errors.UniqueViolation):
                await pool.count(INSERT, values)
            assert pool._idle == [] and first.pg.status == psycopg.pq.ConnStatus.BAD
            # The next statement opens a connection of its own (and prepares again).
            assert await pool.count(INSERT, {**values, "p_id": "other"}) == 1
            assert pool._idle[0] is not first and pool._idle[0].prepared == {INSERT.name}
        finally:
            await pool.close()

    asyncio.run(run())
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM direct_row").fetchone() == (2,)


@pytest.mark.postgres
def test_a_parameter_larger_than_the_socket_takes_at_once_is_sent_whole(
    dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """libpq sends what the socket takes; the rest waits for the socket to be writable.

    The connection's send buffer is made small (128 KiB): with the default one, a Postgres server
    on the other core may read as fast as libpq writes, and the send never has to wait."""
    from app.db import direct

    waits: list[bool] = []
    real = direct._Link._ready
    real_init = direct._Link.__init__

    async def counted(self: Any, write: bool) -> bool:
        waits.append(write)
        return await real(self, write)

    def small_buffer(self: Any, conn: Any) -> None:
        real_init(self, conn)
        with socket.fromfd(self.pg.socket, socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)  # the kernel doubles it

    monkeypatch.setattr(direct._Link, "_ready", counted)
    monkeypatch.setattr(direct._Link, "__init__", small_buffer)
    doc = {"text": "x" * 16_000_000}
    values = {"p_id": "big", "p_n": 1, "p_x": None, "p_at": None, "p_doc": doc, "p_status": "s"}

    async def run() -> int:
        pool = DirectPool(dsn, size=1)
        try:
            return await pool.count(INSERT, values)
        finally:
            await pool.close()

    assert asyncio.run(run()) == 1
    assert True in waits  # it did wait to write
    with psycopg.connect(dsn, autocommit=True) as conn:
        found = conn.execute("SELECT length(doc::text) FROM direct_row WHERE id = 'big'")
        assert found.fetchone() == (len('{"text":""}') + 16_000_000,)


@pytest.mark.postgres
def test_a_statement_waits_for_its_answer_without_holding_the_loop(dsn: str) -> None:
    """A slow statement (pg_sleep) leaves the loop free: another coroutine runs meanwhile."""
    slow = Compiled(select(func.pg_sleep(bindparam("p_s", type_=Float))))

    async def run() -> list[str]:
        pool = DirectPool(dsn, size=2)
        order: list[str] = []

        async def statement() -> None:
            await pool.count(slow, {"p_s": 0.05})
            order.append("statement")

        async def other() -> None:
            order.append("other")

        try:
            await asyncio.gather(statement(), other())
        finally:
            await pool.close()
        return order

    assert asyncio.run(run()) == ["other", "statement"]


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_a_move_id_with_a_nul_is_refused_from_the_loop_as_malformed(
    client: Any, app: Any, ann: Any, bob: Any
) -> None:
    """libpq would store the text up to its NUL (another move's id); the statement is refused
    before it is sent, and the move is answered as malformed: nothing stored."""
    from tests.db.test_concurrency import legal_at, log_length, started_table

    svc = app.state.service
    tid = started_table(client, ann, bob)
    version, moves = legal_at(client, ann, tid)
    body = {"move": moves[0], "expected_version": version, "move_id": "first"}
    assert client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers).is_success
    assert svc.cache.get(tid) is not None  # the next move is judged from memory
    version, moves = legal_at(client, ann, tid)
    body = {"move": moves[0], "expected_version": version, "move_id": "a\x00b"}
    r = client.post(f"/api/tables/{tid}/moves", json=body, headers=ann.headers)
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    assert log_length(svc, tid) == 1
