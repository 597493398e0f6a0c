"""The socket's parts on their own: the frame parser, the token bucket on an injected clock, the
socket caps and the bounded outbox (the catch-ups they send: tests/ws/test_history.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.realtime.frames import Hello, Move, Ping, Refusal, parse_client
from app.realtime.hub import Notice
from app.realtime.limits import Bucket, Slot, SocketLimits, SocketRegistry
from app.realtime.outbox import GameChanged, LobbyChanged, Outbox, PingDue, Text
from tests.ws.fakes import FakeClock


def parse(text: str) -> Any:
    return parse_client(text, 16_384, 32)


def test_frames_are_validated_with_bounded_numbers_depth_and_size() -> None:
    assert parse('{"type": "hello", "since": 3, "ref": "r"}') == Hello(
        type="hello", since=3, ref="r"
    )
    assert isinstance(parse('{"type": "ping", "ref": 9007199254740991}'), Ping)
    move = parse('{"type": "move", "move": {"kind": "x"}, "expected_version": 0, "move_id": "a"}')
    assert isinstance(move, Move)
    refused = {
        '{"type": "hello", "since": 2147483648}': ("malformed", None),
        '{"type": "hello", "since": true, "ref": 1}': ("malformed", 1),
        '{"type": "ping", "ref": 9007199254740992}': ("malformed", None),
        '{"type": "ping", "ref": "%s"}' % ("x" * 65): ("malformed", None),
        '{"type": "ping", "ref": 1, "n": 1e400}': ("malformed", 1),
        '{"type": "ping", "ref": 2, "n": NaN}': ("malformed", 2),
        '{"type": "move", "ref": 3, "move": {"n": ' + str(10**20) + "}}": ("malformed", 3),
        '{"type": 5}': ("malformed", None),
        "[1, 2]": ("malformed", None),
        "not json": ("malformed", None),
        '{"type": "nope", "ref": "z"}': ("unknown_frame", "z"),
        '{"type": "ping", "x": %s}' % ("[" * 33 + "]" * 33): ("malformed", None),
    }
    for text, (code, ref) in refused.items():
        out = parse(text)
        assert isinstance(out, Refusal), text
        assert (out.code, out.ref) == (code, ref), text
    big = parse_client('{"type": "ping", "pad": "%s"}' % ("x" * 3000), 2048, 32)
    assert isinstance(big, Refusal) and big.frame().limit == 2048
    assert parse_client(None, 2048, 32) == Refusal("malformed", "frames are JSON text")


def test_depth_is_counted_outside_strings() -> None:
    def deep(text: str, limit: int) -> bool:
        out = parse_client(text, 1 << 20, limit)
        return isinstance(out, Refusal) and "nest" in out.message

    assert not deep('{"type": "ping", "a": "[[[[[[[[[[[[[[", "b": [[1]]}', 3)
    assert deep('{"type": "ping", "a": [[[1]]]}', 3)
    assert not deep('{"type": "ping", "a": "\\"[[[[[[", "b": 1}', 1)
    assert parse_client("[" * 8000, 1 << 20, 32) == Refusal("malformed", "frames are JSON text")
    assert deep("[" * 40 + "]" * 40, 32)


def test_bucket_refills_on_the_injected_clock() -> None:
    clock = FakeClock()
    bucket = Bucket(rate=2.0, burst=5, clock=clock)
    assert [bucket.take() for _ in range(7)] == [True] * 5 + [False] * 2
    assert bucket.refused == 2
    clock.advance(0.5)
    assert bucket.take() and not bucket.take()
    clock.advance(100)
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]  # never past the burst
    bucket.charge(10)
    clock.advance(4.9)
    assert not bucket.take()  # still in debt
    clock.advance(0.6)
    assert bucket.take()


def test_registry_refuses_past_each_cap_and_counts_nothing_for_a_refusal() -> None:
    limits = SocketLimits(per_profile=2, per_address=3, per_table=4, per_process=5)
    reg = SocketRegistry()
    a1, a2 = Slot("ann", "10.0.0.1", "t1"), Slot("ann", "10.0.0.2", "t2")
    assert reg.claim(a1, limits) is None and reg.claim(a2, limits) is None
    assert reg.claim(Slot("ann", "10.0.0.3", "t3"), limits) == "profile"
    assert reg.claim(Slot("bob", "10.0.0.1", "t1"), limits) is None
    assert reg.claim(Slot("cid", "10.0.0.1", "t1"), limits) is None
    assert reg.claim(Slot("dan", "10.0.0.1", "t5"), limits) == "address"
    assert reg.claim(Slot("dan", "10.0.0.4", "t1"), limits) is None
    assert reg.claim(Slot("eve", "10.0.0.5", "t1"), limits) == "process"
    reg.release(a2)
    assert reg.claim(Slot("eve", "10.0.0.5", "t1"), limits) == "table"
    assert reg.total == 4 and reg.by_profile["ann"] == 1
    for s in (a1, Slot("bob", "10.0.0.1", "t1"), Slot("cid", "10.0.0.1", "t1")):
        reg.release(s)
    reg.release(Slot("dan", "10.0.0.4", "t1"))
    assert reg.total == 0 and not reg.by_profile and not reg.by_address and not reg.by_table


def test_outbox_is_bounded_in_frames_and_bytes_and_notices_coalesce() -> None:
    async def go() -> None:
        overflows: list[int] = []
        box = Outbox(max_frames=100, max_bytes=1000, on_overflow=lambda: overflows.append(1))
        for _ in range(9):
            assert box.put_text("x" * 100)
        assert not box.put_text("x" * 101)  # 1001 bytes: over
        assert overflows == [1] and box.frames == 0 and box.bytes == 0
        assert not box.put_text("y")  # stays closed; no second report
        assert overflows == [1]
        box = Outbox(max_frames=3, max_bytes=10**6, on_overflow=lambda: overflows.append(2))
        for v in range(1, 10_001):
            box.put_nowait(Notice("t", "game", v))
            box.put_nowait(Notice("t", "lobby"))
        box.put_ping()
        box.put_ping()
        assert box.put_text("a") and box.frames == 1
        got = [await box.get() for _ in range(4)]
        assert got == [Text("a"), PingDue(), LobbyChanged(), GameChanged(10_000)]

    asyncio.run(go())


@pytest.mark.parametrize("env", [{"EMARA_WS_MAX_PER_PROFILE": "3", "EMARA_WS_OUTBOX_FRAMES": "9"}])
def test_socket_limits_come_from_settings(env: dict[str, str], monkeypatch: Any) -> None:
    from app.config import Settings

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    limits = SocketLimits.from_settings(Settings())
    assert limits.per_profile == 3 and limits.outbox_frames == 9
    assert limits.per_address == 64 and limits.per_table == 64 and limits.per_process == 5000
