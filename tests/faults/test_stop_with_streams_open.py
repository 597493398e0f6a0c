"""Ctrl+C (SIGINT) or ``kill`` (SIGTERM) stops a server while a browser tab holds its My games
event stream open: the stream ends cleanly (a complete response, as EventSource expects before it
reconnects) and the process exits through its lifespan's shutdown, without the graceful
shutdown's timeout cancelling anything."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.db.migrate import upgrade
from app.devtools.players import new_player
from app.devtools.stack import ServerProcess

# uvicorn's words when its --timeout-graceful-shutdown ran out and it cancelled open responses
CANCELLED = "timeout graceful shutdown exceeded"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('streams') / 'emara.db'}"
    upgrade(url)
    return url


@pytest.fixture
def server(database: str, tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(database, tmp_path / "server.log").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_open_event_streams_and_the_server_stops(
    server: ServerProcess, sig: signal.Signals
) -> None:
    assert server.proc is not None
    ada = new_player(server.http(), "Ada")
    headers = {**ada.headers, "Accept": "text/event-stream"}
    with (
        httpx.Client(base_url=server.base, trust_env=False, timeout=30) as tab,
        tab.stream("GET", "/api/me/events", headers=headers) as stream,
    ):
        assert stream.status_code == 200
        chunks = stream.iter_bytes()
        first = next(chunks)
        assert b"event: hello" in first
        server.signal(sig)
        # The rest of the stream, to its end: a response cut off by a cancelled task raises
        # RemoteProtocolError (an incomplete chunked body) here.
        rest = b"".join(chunks)
    assert b"event:" not in rest  # nothing more was said: it just ended
    returncode = server.proc.wait(timeout=30)
    assert returncode is not None
    log = server.log_text()
    assert CANCELLED not in log, server.log_tail()
    assert "Application shutdown complete" in log, server.log_tail()
