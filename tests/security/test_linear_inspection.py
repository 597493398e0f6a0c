"""Nothing a client sends can make the check of a frame cost more than linear work: the worst
shapes of text we know (long runs of quotes, backslashes and brackets, quotes escaped inside
strings, strings nested in objects, as many values as the size allows) are checked with a meter
of the values examined, and a socket is charged its rate limit before a frame is parsed.

(Before, the nesting scan re-read an unterminated string from every quote in it: a 16 KiB frame
of quote-backslash pairs cost 0.88 s of CPU on the event loop; figures in bench/abuse.py.)
"""

from __future__ import annotations

import asyncio
import json

import pytest

from app.devtools.hostile_text import VALID, worst_shapes
from app.realtime import frames as f
from app.realtime.limits import SocketLimits
from tests.ws.fakes import connection


@pytest.mark.parametrize("size", [1024, 16_384, 262_144])
def test_every_worst_shape_is_checked_in_linear_work(size: int) -> None:
    for name, text in worst_shapes(size).items():
        meter = f.Meter()
        out = f.parse_client(text, 1 << 22, 32, meter)
        # every value of the parsed text looked at once at most: a value takes a character
        assert meter.examined <= len(text), (name, meter.examined, len(text))
        if name in VALID:
            # valid JSON: refused past the value cap, else by the model (the extra field)
            assert json.loads(text) and isinstance(out, f.Refusal), name
            assert out.message in ("malformed ping frame", "frames hold at most 1000 values")
        else:
            assert isinstance(out, f.Refusal), name


def test_the_work_grows_with_the_text_not_faster() -> None:
    """Doubling the text at most doubles the values examined, for every shape."""
    small, large = worst_shapes(8192), worst_shapes(16_384)
    for name in small:
        a, b = f.Meter(), f.Meter()
        f.parse_client(small[name], 1 << 22, 32, a)
        f.parse_client(large[name], 1 << 22, 32, b)
        assert b.examined <= 2 * a.examined + 8, (name, a.examined, b.examined)


def test_a_flood_is_refused_before_it_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the burst, frames are answered ``rate_limited`` without being parsed at all."""
    parsed: list[str] = []
    real = f.parse_client

    def counting(text: str | None, *args: object, **kw: object) -> object:
        parsed.append(text or "")
        return real(text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(f, "parse_client", counting)

    async def go() -> None:
        conn, transport, _, _ = connection(SocketLimits(rate_burst=3, rate_per_second=0.001))
        task = asyncio.create_task(conn.run("good"))
        assert json.loads(await transport.next())["type"] == "welcome"
        heavy = worst_shapes(16_000)["quote_backslash"]
        for _ in range(10):
            transport.push(heavy)
        codes = [json.loads(await transport.next()).get("code") for _ in range(10)]
        assert codes == ["malformed"] * 3 + ["rate_limited"] * 7
        assert len(parsed) == 3  # the seven refused frames were never parsed
        conn.finish(1000)
        await asyncio.wait_for(task, 10)

    asyncio.run(go())


def test_a_socket_not_yet_authenticated_may_send_only_a_small_first_frame() -> None:
    async def go() -> None:
        conn, transport, _, _ = connection(SocketLimits(first_frame_bytes=2048))
        task = asyncio.create_task(conn.run(None))
        transport.push(json.dumps({"type": "auth", "token": "good", "ref": "x" * 10}) + " " * 4096)
        refused = json.loads(await transport.next())
        assert refused["code"] == "unauthenticated"
        await asyncio.wait_for(task, 10)
        assert transport.closed is not None and transport.closed[0] == 4401

    asyncio.run(go())
