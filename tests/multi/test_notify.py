"""The LISTEN/NOTIFY bridge on a real Postgres: delivery on commit only, own hints skipped,
malformed payloads ignored, reconnect + resync after the listener's backend is terminated."""

from __future__ import annotations

import asyncio

import pytest

from app.db.direct import libpq_dsn
from app.devtools.stack import TempDatabase
from app.realtime.notify import (
    PgNotifier,
    decode_hint,
    encode_hint,
    notify_statement,
)
from tests.conftest import need_postgres as require_postgres

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def db():
    require_postgres()
    with TempDatabase(prefix="emara_notify", migrate=False) as d:
        yield d


def test_codec_round_trip_and_rejects_garbage():
    assert decode_hint(encode_hint("abc", 7, "me")) == ("abc", 7, "me", "game")
    assert decode_hint(encode_hint("abc", None, "me", "lobby")) == ("abc", None, "me", "lobby")
    bad_payloads = ["", "{", "[]", "3", '{"t": 1, "v": 2}', '{"t": "x", "v": "2"}']
    bad_payloads += ['{"t": "x", "v": true}', '{"t": "x", "v": 1, "k": "other"}']
    for bad in bad_payloads:
        assert decode_hint(bad) is None
    assert libpq_dsn("postgresql+psycopg://u@h:5432/d") == "postgresql://u@h:5432/d"


async def _collect(db, **kw):
    got: list[tuple[str, int]] = []
    event = asyncio.Event()

    def on_hint(t: str, v: int | None, k: str) -> None:
        got.append((t, v))
        event.set()

    n = PgNotifier(db.url, on_hint, **kw)
    await n.start()
    assert n.connected.is_set()
    return n, got, event


async def _heard(got: list[tuple[str, int]], event: asyncio.Event, hint: tuple[str, int]) -> None:
    """Wait until ``hint`` has been heard (woken by each delivery, never by a timer)."""
    while hint not in got:
        event.clear()
        if hint in got:
            break
        await asyncio.wait_for(event.wait(), 10)


def test_hint_crosses_processes_on_commit_only(db):
    from sqlalchemy import create_engine

    async def scenario():
        listener, got, event = await _collect(db)
        other, _, _ = await _collect(db, origin="other")  # a second "instance"
        try:
            engine = create_engine(db.url)
            # Rolled back: never delivered.
            with engine.connect() as conn:
                conn.execute(notify_statement("t1", 1, origin="elsewhere"))
                conn.rollback()
            # Committed: delivered once.
            with engine.begin() as conn:
                conn.execute(notify_statement("t1", 2, origin="elsewhere"))
            await asyncio.wait_for(event.wait(), 5)
            assert await other.publish("t2", 9)
            await _heard(got, event, ("t2", 9))
            assert got == [("t1", 2), ("t2", 9)]
            # A process skips its own hints: its own t3, then another's t4 (delivered in commit
            # order, so once t4 is heard, t3 would have been too).
            assert await listener.publish("t3", 1)
            assert await other.publish("t4", 1)
            await _heard(got, event, ("t4", 1))
            assert ("t3", 1) not in got
            engine.dispose()
        finally:
            await listener.stop()
            await other.stop()

    asyncio.run(scenario())


def test_malformed_payload_is_ignored_and_listener_survives(db):
    import psycopg

    async def scenario():
        listener, got, event = await _collect(db)
        try:
            async with await psycopg.AsyncConnection.connect(db.libpq_url, autocommit=True) as c:
                await c.execute("SELECT pg_notify('emara_tables', 'garbage{')")
                await c.execute(
                    "SELECT pg_notify('emara_tables', %s)", (encode_hint("ok", 3, "x"),)
                )
            await asyncio.wait_for(event.wait(), 5)
            assert got == [("ok", 3)]
        finally:
            await listener.stop()

    asyncio.run(scenario())


def test_listener_reconnects_and_resyncs_after_backend_terminated(db):
    async def scenario():
        resynced = asyncio.Event()
        listener, got, event = await _collect(db, on_resync=resynced.set, max_backoff=0.5)
        publisher = PgNotifier(db.url, lambda t, v, k: None, origin="pub")
        try:
            killed = await asyncio.to_thread(db.terminate_app_backends)
            assert killed >= 1
            await asyncio.wait_for(resynced.wait(), 10)
            await asyncio.wait_for(listener.connected.wait(), 5)
            assert listener.reconnects >= 1
            # The publisher's connection may have been terminated too: publish reconnects.
            assert await publisher.publish("after", 5)
            await _heard(got, event, ("after", 5))
        finally:
            await listener.stop()
            await publisher.stop()

    asyncio.run(scenario())


def test_a_publisher_whose_connection_was_cut_sends_on_a_new_one(db):
    """The publishing connection dies between two hints: the next publish notices, connects
    again and sends. A Postgres nobody can reach makes publish say so, never raise."""

    async def scenario():
        resynced = asyncio.Event()
        listener, got, event = await _collect(db, on_resync=resynced.set, max_backoff=0.5)
        publisher = PgNotifier(db.url, lambda t, v, k: None, origin="pub")
        unreachable = PgNotifier("postgresql://postgres@127.0.0.1:1/none", lambda t, v, k: None)
        try:
            assert await publisher.publish("before", 1)
            await _heard(got, event, ("before", 1))
            cut = publisher._pub_conn
            assert await asyncio.to_thread(db.terminate_app_backends) >= 2
            await asyncio.wait_for(resynced.wait(), 10)
            assert await publisher.publish("after", 2)
            assert publisher._pub_conn is not cut
            await _heard(got, event, ("after", 2))
            assert await unreachable.publish("never", 3) is False
            assert unreachable._pub_conn is None
        finally:
            await listener.stop()
            await publisher.stop()
            await unreachable.stop()

    asyncio.run(scenario())


def test_the_relay_sends_on_a_new_connection_and_its_tables_look_again_after_a_reconnect(db):
    """The hub's relay: its sending connection cut, the next batch goes on a new one; its
    listener cut, every table with a local listener hears every kind of table notice (hints
    sent meanwhile were lost); another process's hint wakes the table's local listeners."""
    from app.realtime.hub import TABLE_NOTICES, Hub, Notice
    from app.realtime.notify import HubRelay

    async def scenario():
        hub = Hub()
        local: asyncio.Queue[object] = asyncio.Queue()
        hub.subscribe("t9", local)
        relay = HubRelay(hub, db.url)
        relay.notifier.max_backoff = 0.5
        await relay.start()
        other_resynced = asyncio.Event()
        other, got, event = await _collect(
            db, on_resync=other_resynced.set, origin="other", max_backoff=0.5
        )
        try:
            hub.publish(Notice("t9", "game", 1))
            await relay.sent()
            await _heard(got, event, ("t9", 1))
            while not local.empty():
                local.get_nowait()
            assert await asyncio.to_thread(db.terminate_app_backends) >= 3
            heard: set[str] = set()
            while heard != set(TABLE_NOTICES):  # the relay's resync, after its reconnect
                notice = await asyncio.wait_for(local.get(), 10)
                assert isinstance(notice, Notice) and notice.table_id == "t9"
                assert notice.version is None
                heard.add(notice.kind)
            await asyncio.wait_for(other_resynced.wait(), 10)
            hub.publish(Notice("t9", "game", 2))
            await relay.sent()
            await _heard(got, event, ("t9", 2))
            # and another process's hint reaches this process's listeners through the relay
            assert await other.publish("t9", 3, "lobby")
            while True:
                notice = await asyncio.wait_for(local.get(), 10)
                if notice == Notice("t9", "lobby", 3):
                    break
        finally:
            await other.stop()
            await relay.stop()

    asyncio.run(scenario())
