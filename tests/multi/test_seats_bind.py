"""A seat change binds the very next move on every instance, with no notice needed.

Two processes on one Postgres that do NOT hear each other (each listens on its own NOTIFY
channel): whatever instance B remembers of a table, a seat handed to a bot (or taken back) on
instance A judges B's next move, because the move's conditional update checks the table's
``seats_version``.
"""

from __future__ import annotations

import uuid

import httpx
import pytest

from app.devtools.players import get_game, http_move, seat_table
from app.devtools.stack import ServerProcess, server_errors

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def deaf_servers(pg_db, tmp_path_factory):
    logs = tmp_path_factory.mktemp("deaf-servers")
    tag = uuid.uuid4().hex[:8]
    a = ServerProcess(pg_db.url, logs / "a.log", env={"EMARA_NOTIFY_CHANNEL": f"emara_a_{tag}"})
    b = ServerProcess(pg_db.url, logs / "b.log", env={"EMARA_NOTIFY_CHANNEL": f"emara_b_{tag}"})
    a.start()
    try:
        b.start()
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


def test_a_seat_handed_to_a_bot_on_one_instance_binds_the_next_move_on_the_other(deaf_servers):
    a, b = deaf_servers
    with (
        httpx.Client(base_url=a.base, timeout=10) as ca,
        httpx.Client(base_url=b.base, timeout=10) as cb,
    ):
        t = seat_table(ca, seats=2, options={"start_player": 1})
        host, guest = t.players
        # The guest plays the first turn through B: B remembers the table, seats included.
        while (g := get_game(cb, t.id, guest))["view"]["to_act"] == [1]:
            r = http_move(cb, t.id, guest, g["legal_moves"][0], g["version"])
            assert r.status_code == 200, r.text
        version = get_game(cb, t.id, host)["version"]

        # On A, the guest hands the seat to a bot (not its turn: the bot waits).
        r = ca.post(
            f"/api/tables/{t.id}/seats/1/bot", json={"level": "random"}, headers=guest.headers
        )
        assert r.status_code == 200, r.text
        # At once, through B (which heard nothing): the guest's move is refused for the seat,
        # before the rules look at it, and changes nothing.
        r = http_move(cb, t.id, guest, {"kind": "end_turn"}, version)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "bot_plays_seat"
        assert get_game(ca, t.id, host)["version"] == version

        # Taken back on A; the host's move through B (still remembering) is judged anew.
        r = ca.post(f"/api/tables/{t.id}/seats/1/reclaim", headers=guest.headers)
        assert r.status_code == 200, r.text
        g = get_game(cb, t.id, host)
        assert g["view"]["to_act"] == [0]
        r = http_move(cb, t.id, host, g["legal_moves"][0], version)
        assert r.status_code == 200, r.text
        assert r.json()["version"] == version + 1
    assert server_errors(a.log_text()) == []
    assert server_errors(b.log_text()) == []
