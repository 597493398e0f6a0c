"""My games: the order (my turn first, finished last), the count waiting for me, the ETag, and
the server-sent event stream that says when the list changed."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from app.clock import ManualClock
from app.mygames.service import MyGames
from tests import games
from tests.conftest import Player, new_player, serve
from tests.pace.conftest import START, end_turn, game, open_game


def play_solo_to_the_end(tc: TestClient, who: Player) -> str:
    """A solo game of ``who`` opened through the API and played to its end in process."""
    r = tc.post("/api/tables", json={"seats": 1, "options": {}}, headers=who.headers)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    games.play_out(tc, tid, seed=3)
    assert game(tc, tid, who)["status"] == "finished"
    return str(tid)


def test_my_turn_first_then_play_lobbies_and_finished_games_with_my_place(
    tc: TestClient, clock: ManualClock, ada: Player, ben: Player
) -> None:
    finished = play_solo_to_the_end(tc, ada)
    lobby = tc.post("/api/tables", json={"seats": 3}, headers=ada.headers).json()["id"]
    # Two games where it is Ada's turn (deadlines 1 h and 12 h away), one where it is Ben's.
    late = open_game(tc, [ada, ben], {"mode": "turn", "hours": 12})["id"]
    soon = open_game(tc, [ada, ben], {"mode": "turn", "hours": 1})["id"]
    theirs = open_game(tc, [ada, ben], {"mode": "live", "clock": "10+20"})["id"]
    end_turn(tc, theirs, ada)
    r = tc.get("/api/me/tables", headers=ada.headers)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["waiting"] == 2
    assert [t["id"] for t in body["tables"]] == [soon, late, theirs, lobby, finished]
    assert [t["group"] for t in body["tables"]] == [
        "your_turn",
        "your_turn",
        "playing",
        "lobby",
        "finished",
    ]
    first = body["tables"][0]
    assert first["my_turn"] and first["host_name"] == "Ada" and first["names"] == ["Ada", "Ben"]
    assert first["my_deadline"] == "2027-01-15T09:00:00+00:00"  # START + 1 h
    # a solo game: the player and Victoria ranked together (first only with a win)
    solo = body["tables"][4]["result"]
    assert (solo["place"], solo["of"]) == (1 if solo["won"] else 2, 2)
    assert body["tables"][2]["my_turn"] is False
    # Ben sees one table waiting for him.
    assert tc.get("/api/me/tables", headers=ben.headers).json()["waiting"] == 1
    # Unchanged: 304 for the same ETag; a move changes it.
    etag = r.headers["etag"]
    again = tc.get("/api/me/tables", headers={**ada.headers, "If-None-Match": etag})
    assert again.status_code == 304
    end_turn(tc, soon, ada)
    changed = tc.get("/api/me/tables", headers={**ada.headers, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()["waiting"] == 1
    assert START  # the clock did not move: the deadlines above are exact


def test_my_tables_needs_a_profile(tc: TestClient) -> None:
    r = tc.get("/api/me/tables")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthenticated"


def read_events(lines: Any, want: str) -> dict[str, str]:
    """The next SSE event named ``want`` (skipping heartbeats and others)."""
    event: dict[str, str] = {}
    for line in lines:
        if line == "":
            if event.get("event") == want:
                return event
            event = {}
        elif not line.startswith(":") and ":" in line:
            key, _, value = line.partition(":")
            event[key] = value.strip()
    raise AssertionError(f"the stream ended before a {want!r} event")


def test_event_stream_says_when_my_list_changed_and_is_capped(clocked: Any) -> None:
    with serve(clocked) as live, httpx.Client(base_url=live.http, timeout=10) as http:
        ada, ben, eve = (new_player(http, n) for n in ("Ada", "Ben", "Eve"))  # type: ignore[arg-type]
        t = open_game(http, [ada, ben], {"mode": "live", "clock": "10+20"})  # type: ignore[arg-type]
        sse = {**ben.headers, "Accept": "text/event-stream"}
        r = http.get("/api/me/events", headers=ben.headers)
        assert r.status_code == 406 and r.json()["error"]["code"] == "not_acceptable"
        with http.stream("GET", "/api/me/events", headers=sse) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            assert '"profile_id"' in read_events(lines, "hello")["data"]
            # A table Ben does not sit at changes: nothing for him; then Ada moves at his table.
            http.post("/api/tables", json={"seats": 2}, headers=eve.headers)
            after = end_turn(http, t["id"], ada)["version"]  # type: ignore[arg-type]
            data = json.loads(read_events(lines, "tables")["data"])
            assert data["table_id"] == t["id"] and data["kind"] == "game"
            while data["version"] < after:  # one event a move: Ada's turn until her last
                assert data["waiting"] == 0
                data = json.loads(read_events(lines, "tables")["data"])
            # the count of tables waiting for Ben comes with each, as GET /api/me/tables counts it
            mine = http.get("/api/me/tables", headers=ben.headers).json()
            assert data["waiting"] == mine["waiting"] == 1
            # The cap: 4 streams per profile by default; the fifth is refused.
            with contextlib.ExitStack() as more:
                for _ in range(3):
                    more.enter_context(http.stream("GET", "/api/me/events", headers=sse))
                r = http.get("/api/me/events", headers=sse)
                assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_streams"


def test_an_event_whose_count_cannot_be_read_goes_without_it(
    clocked: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count is the database's: when it cannot be read the event still goes, without
    ``waiting``, and the page reads the list."""

    def broken(self: Any, profile_ids: list[str]) -> dict[str, int]:
        raise OperationalError("SELECT", {}, Exception("the database is away"))

    monkeypatch.setattr(MyGames, "waiting_sync", broken)
    with serve(clocked) as live, httpx.Client(base_url=live.http, timeout=10) as http:
        ada, ben = (new_player(http, n) for n in ("Ada", "Ben"))  # type: ignore[arg-type]
        t = open_game(http, [ada, ben], {"mode": "live", "clock": "10+20"})  # type: ignore[arg-type]
        sse = {**ben.headers, "Accept": "text/event-stream"}
        with http.stream("GET", "/api/me/events", headers=sse) as stream:
            lines = stream.iter_lines()
            read_events(lines, "hello")
            end_turn(http, t["id"], ada)  # type: ignore[arg-type]
            data = json.loads(read_events(lines, "tables")["data"])
            assert data["table_id"] == t["id"] and "waiting" not in data
