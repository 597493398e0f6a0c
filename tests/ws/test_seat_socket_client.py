"""The load and test client of a seat (app/devtools/players.py) answers the server's heartbeat as
the page does, so a quiet socket outlives the idle timeout, and counts what it receives."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.devtools.players import FrameTally, SeatSocket, seat_table


def quiet_socket_outcome(live: Any, answer_pings: bool) -> tuple[int | None, FrameTally]:
    """Open one seat's socket, say nothing, and wait for five server pings (0.3 s apart: more
    than the 1 s idle timeout in all); the close code then (None: still open) and the tally."""
    with httpx.Client(base_url=live.http, timeout=10) as client:
        table = seat_table(client, seats=2)
    tally = FrameTally.empty()

    async def scenario() -> int | None:
        s = SeatSocket(
            live.ws, table.id, table.players[0].token, answer_pings=answer_pings, tally=tally
        )
        await s.connect(since=0)
        try:
            for _ in range(5):
                mark = s.received
                await s.wait_for(lambda f: f.get("type") == "ping", 10, start=mark)
        except ConnectionError:
            pass
        code = s.close_code
        await s.close()
        return code

    return asyncio.run(scenario()), tally


@pytest.fixture
def quick_heartbeat(live_factory: Any) -> Any:
    return live_factory(ws_heartbeat_seconds=0.3, ws_idle_timeout_seconds=1.0)


def test_a_quiet_socket_that_answers_pings_stays_open(quick_heartbeat: Any) -> None:
    code, tally = quiet_socket_outcome(quick_heartbeat, answer_pings=True)
    assert code is None
    assert tally.frames["ping"] >= 5, tally.frames
    # the catch-up from version 0 (an update) and the table's lobby, each counted once
    assert tally.frames["update"] == 1 and tally.frames["lobby"] == 1
    assert tally.bytes["update"] > 0
    assert tally.total_bytes == sum(tally.bytes.values())


def test_a_quiet_socket_that_ignores_pings_is_closed_as_silent(quick_heartbeat: Any) -> None:
    code, _ = quiet_socket_outcome(quick_heartbeat, answer_pings=False)
    assert code == 4408


def test_the_tally_counts_utf8_bytes_and_what_arrived_since() -> None:
    tally = FrameTally.empty()
    tally.add("update", 10)
    before = tally.copy()
    tally.add("update", len("é".encode()))
    tally.add("ping", 3)
    later = tally.since(before)
    assert later.frames == {"update": 1, "ping": 1}
    assert later.bytes == {"update": 2, "ping": 3}
