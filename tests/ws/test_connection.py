"""The socket connection alone, on a fake websocket, a fake service and a clock the test moves:
every frame gets an answer or a close, memory per socket is bounded, time is the injected clock."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

from app.realtime.limits import SocketLimits
from app.realtime.socket import Connection
from tests.ws.fakes import GUARD, FakeAccess, FakeClock, FakeTransport, connection

FAST = SocketLimits(rate_per_second=1e6, rate_burst=10**6)
UNENCODABLE_REFS = [str(10**30), str(-(2**64)), "[" * 300 + "]" * 300]


async def opened(
    limits: SocketLimits = FAST,
) -> tuple[Connection, FakeTransport, FakeAccess, FakeClock, asyncio.Task[None]]:
    conn, transport, access, clock = connection(limits)
    task = asyncio.create_task(conn.run("good"))
    assert json.loads(await transport.next())["type"] == "welcome"
    return conn, transport, access, clock, task


async def answer(transport: FakeTransport) -> dict[str, Any]:
    return json.loads(await transport.next())  # type: ignore[no-any-return]


async def ended(task: asyncio.Task[None]) -> None:
    await asyncio.wait_for(task, GUARD)


def test_refs_no_encoder_can_write_get_an_error_without_ref_and_the_socket_goes_on() -> None:
    async def go() -> None:
        conn, transport, access, _, task = await opened()
        for ref in UNENCODABLE_REFS:
            transport.push(f'{{"type": "ping", "ref": {ref}}}')
            err = await answer(transport)
            assert err["type"] == "error" and err["code"] == "malformed"
            assert "ref" not in err
            transport.push('{"type": "ping", "ref": "after"}')
            assert await answer(transport) == {"type": "pong", "ref": "after"}
        for ref in UNENCODABLE_REFS:  # a move with such a ref is refused, not committed
            transport.push(
                '{"type": "move", "move": {"kind": "end_turn"}, "expected_version": 0, '
                f'"move_id": "m1", "ref": {ref}}}'
            )
            err = await answer(transport)
            assert err["code"] == "malformed" and "ref" not in err
        assert access.moves == []
        transport.push(
            '{"type": "move", "move": {"kind": "end_turn"}, "expected_version": 0, '
            '"move_id": "m1", "ref": 7}'
        )
        assert await answer(transport) == {
            "type": "accepted",
            "version": 1,
            "move_id": "m1",
            "events": [],
            "duplicate": False,
            "ref": 7,
        }
        conn.finish(1000)
        await ended(task)

    asyncio.run(go())


def test_every_direct_answer_echoes_a_usable_ref() -> None:
    async def go() -> None:
        conn, transport, _, _, task = await opened(SocketLimits(rate_burst=4, rate_per_second=1))
        cases = [
            ('{"type": "ping", "ref": "a"}', "pong"),
            ('{"type": "launch", "ref": "b"}', "unknown_frame"),
            ('{"type": "hello", "since": -1, "ref": "c"}', "malformed"),
            ('{"type": "ping", "ref": "d", "extra": 1}', "malformed"),
            ('{"type": "ping", "ref": "e"}', "rate_limited"),
        ]
        for raw, code in cases:
            transport.push(raw)
            frame = await answer(transport)
            assert frame.get("code", frame["type"]) == code, raw
            assert frame["ref"] == json.loads(raw)["ref"]
        conn.finish(1000)
        await ended(task)

    asyncio.run(go())


def test_a_client_that_does_not_read_is_closed_with_1013_and_its_outbox_stays_bounded() -> None:
    async def go() -> None:
        limits = SocketLimits(rate_per_second=1e6, rate_burst=10**6, outbox_frames=8)
        conn, transport, _, _, task = await opened(limits)
        transport.blocked = True
        for i in range(1000):
            transport.push(f'{{"type": "ping", "ref": "{(str(i) * 16)[:64]}"}}')
        await ended(task)
        assert transport.closed is not None and transport.closed[0] == 1013
        assert conn.outbox.frames == 0 and conn.outbox.bytes == 0  # let go at the close
        # it stopped reading at the bound (8 queued, one more in the send at most)
        assert transport.inbox.qsize() >= 1000 - 8 - 3

    asyncio.run(go())


def test_a_send_blocked_past_the_send_timeout_closes_the_socket() -> None:
    async def go() -> None:
        conn, transport, _, clock, task = await opened(SocketLimits(send_timeout_seconds=10))
        transport.blocked = True
        transport.send_started.clear()
        transport.push('{"type": "ping"}')
        await asyncio.wait_for(transport.send_started.wait(), GUARD)
        clock.advance(9)
        conn.tick()
        assert not conn.done.is_set()
        clock.advance(2)
        conn.tick()
        await ended(task)
        assert transport.closed is not None and transport.closed[0] == 1013

    asyncio.run(go())


def test_heartbeat_pings_a_quiet_socket_and_closes_a_silent_one() -> None:
    async def go() -> None:
        limits = SocketLimits(heartbeat_seconds=20, idle_timeout_seconds=60)
        conn, transport, _, clock, task = await opened(limits)
        clock.advance(19)
        conn.tick()
        assert transport.sent.empty()
        clock.advance(1)
        conn.tick()
        ping = await answer(transport)
        assert ping == {"type": "ping", "t": int(clock.now())}
        transport.push('{"type": "pong"}')  # heard: the deadline moves
        transport.push('{"type": "ping", "ref": 1}')
        assert await answer(transport) == {"type": "pong", "ref": 1}
        clock.advance(59)
        conn.tick()
        assert not conn.done.is_set()
        clock.advance(2)
        conn.tick()
        await ended(task)
        assert transport.closed is not None and transport.closed[0] == 4408

    asyncio.run(go())


def test_a_failure_in_the_writer_closes_the_socket_with_1011_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def go() -> None:
        _, transport, access, _, task = await opened()
        access.lobby_error = RuntimeError("boom")
        transport.push('{"type": "hello", "since": null}')
        await ended(task)
        assert transport.closed is not None and transport.closed[0] == 1011

    with caplog.at_level(logging.ERROR, logger="emara.socket"):
        asyncio.run(go())
    assert any("writer failed" in r.getMessage() for r in caplog.records)


def test_game_notices_coalesce_while_the_client_is_slow() -> None:
    async def go() -> None:
        conn, transport, access, _, task = await opened()
        transport.push('{"type": "hello", "since": null}')
        assert (await answer(transport))["type"] == "lobby"
        assert (await answer(transport))["version"] == 0
        transport.blocked = True
        from app.realtime.hub import Notice

        for v in range(1, 5001):
            access.listeners[0].put_nowait(Notice("t1", "game", v))
        assert conn.outbox.frames == 0  # a notice takes no room, however many come
        conn.finish(1000)
        await ended(task)

    asyncio.run(go())


def test_a_hello_is_charged_by_the_size_of_its_catch_up() -> None:
    async def go() -> None:
        limits = SocketLimits(rate_per_second=1, rate_burst=10, catch_up_token_bytes=8)
        conn, transport, _, _, task = await opened(limits)
        transport.push('{"type": "hello", "since": null, "ref": 1}')
        await answer(transport)  # lobby
        snapshot = await transport.next()
        assert len(snapshot) > 80
        assert conn.bucket.tokens == pytest.approx(10 - 1 - len(snapshot) / 8)
        transport.push('{"type": "ping", "ref": 2}')
        assert (await answer(transport))["code"] == "rate_limited"
        conn.finish(1000)
        await ended(task)

    asyncio.run(go())


def test_an_unauthenticated_first_frame_is_refused_with_4401() -> None:
    async def go() -> None:
        conn, transport, _, _ = connection()
        task = asyncio.create_task(conn.run(None))
        transport.push('{"type": "auth", "token": "bad", "ref": "x"}')
        err = await answer(transport)
        assert err["code"] == "unauthenticated" and err["ref"] == "x"
        await ended(task)
        assert transport.closed == (4401, "unauthenticated")

    asyncio.run(go())
