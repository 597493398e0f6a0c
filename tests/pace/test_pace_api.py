"""Pace over HTTP with the server's clock in the test's hand: options, stored deadlines, the
sweeper's hand-over (exactly once), reclaim, vacation."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.clock import ManualClock
from app.db.models import GameTable, MoveRecord, Seat, TableEvent
from tests.conftest import Player
from tests.pace.conftest import START, end_turn, game, open_game


def stored(app: Any, tid: str) -> GameTable:
    with app.state.db.session() as s:
        t = s.get(GameTable, tid)
        assert t is not None
        s.expunge(t)
        return t


def bot_levels(app: Any, tid: str) -> dict[int, str | None]:
    with app.state.db.session() as s:
        rows = s.execute(select(Seat.seat, Seat.bot_level).where(Seat.table_id == tid))
        return {seat: level for seat, level in rows}


@pytest.mark.parametrize(
    "options",
    [
        {"pace": {"mode": "live", "clock": "5+5"}},
        {"pace": {"mode": "turn", "hours": 2}},
        {"pace": {"mode": "turn", "hours": "24"}},
        {"pace": {"mode": "live", "hours": 24}},
        {"pace": {"mode": "blitz"}},
        {"pace": "10+20"},
        {"timeout_bot_level": "genius"},
    ],
)
def test_bad_pace_options_are_refused_and_change_nothing(
    tc: TestClient, ada: Player, options: dict[str, Any]
) -> None:
    r = tc.post("/api/tables", json={"seats": 2, "options": options}, headers=ada.headers)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "malformed"
    assert tc.get("/api/tables", headers=ada.headers).json()["tables"] == []


def test_default_pace_is_live_without_a_clock(tc: TestClient, ada: Player, ben: Player) -> None:
    t = open_game(tc, [ada, ben], {"mode": "live"})
    assert t["options"]["pace"] == {"mode": "live", "clock": "none"}
    assert t["options"]["timeout_bot_level"] == "greedy"
    assert t["clock"] is None
    g = end_turn(tc, t["id"], ada)
    assert g["clock"] is None and stored(tc.app, t["id"]).deadline is None


def test_live_clock_deadlines_are_stored_with_each_move(
    tc: TestClient, clocked: Any, clock: ManualClock, ada: Player, ben: Player
) -> None:
    t = open_game(tc, [ada, ben], {"mode": "live", "clock": "10+20"})
    seats = t["clock"]["seats"]
    assert [s["running"] for s in seats] == [True, False]
    assert seats[0]["deadline"] == "2027-01-15T08:10:00+00:00"  # START + 600 s
    assert stored(clocked, t["id"]).deadline == START + 600
    clock.advance(100)
    g = end_turn(tc, t["id"], ada)
    assert g["view"]["to_act"] == [1]
    banks = [s["bank"] for s in g["clock"]["seats"]]
    assert banks == [600 - 100 + 20, 600]
    assert stored(clocked, t["id"]).deadline == START + 100 + 600
    assert g["clock"]["seats"][1]["running"]


def test_sweeper_hands_an_expired_seat_to_a_bot_once_and_the_player_takes_it_back(
    tc: TestClient, clocked: Any, clock: ManualClock, ada: Player, ben: Player
) -> None:
    t = open_game(tc, [ada, ben], {"mode": "turn", "hours": 1}, timeout_bot_level="random")
    tid = t["id"]
    end_turn(tc, tid, ada)  # Ben's hour starts now
    sweeper = clocked.state.sweeper
    assert sweeper.sweep_once(START + 3599) == []
    done = sweeper.sweep_once(START + 3600)
    assert [(d.seat, d.profile_id, d.level) for d in done] == [(1, ben.id, "random")]
    assert sweeper.sweep_once(START + 3601) == []  # once
    assert bot_levels(clocked, tid) == {0: None, 1: "random"}
    g = game(tc, tid, ben)
    assert g["pace_log"][-1]["kind"] == "seat_timed_out"
    assert g["pace_log"][-1]["params"] == {"seat": 1, "name": "Ben", "level": "random"}
    assert g["clock"]["seats"][1]["timed_out"]
    # Ben takes his seat back: a fresh hour, and the sweeper leaves him alone until it ends.
    clock.advance(7200)
    r = tc.post(f"/api/tables/{tid}/seats/1/reclaim", headers=ben.headers)
    assert r.status_code == 200, r.text
    lobby = r.json()
    assert lobby["seats"][1]["bot_level"] is None
    assert not lobby["clock"]["seats"][1]["timed_out"]
    if stored(clocked, tid).state and 1 in game(tc, tid, ben)["view"]["to_act"]:
        assert stored(clocked, tid).deadline == START + 7200 + 3600
        assert sweeper.sweep_once(START + 7200 + 3599) == []


def test_vacation_pauses_the_table_clock_for_the_host_only(
    tc: TestClient, clocked: Any, clock: ManualClock, ada: Player, ben: Player
) -> None:
    t = open_game(tc, [ada, ben], {"mode": "turn", "hours": 1})
    tid = t["id"]
    clock.advance(600)
    r = tc.post(f"/api/tables/{tid}/clock/pause", headers=ben.headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = tc.post(f"/api/tables/{tid}/clock/pause", headers=ada.headers)
    assert r.status_code == 200, r.text
    assert r.json()["clock"]["paused"] and stored(clocked, tid).deadline is None
    r = tc.post(f"/api/tables/{tid}/clock/pause", headers=ada.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_pace"
    assert clocked.state.sweeper.sweep_once(START + 86_400) == []
    clock.advance(86_400)
    r = tc.post(f"/api/tables/{tid}/clock/resume", headers=ada.headers)
    assert r.status_code == 200, r.text
    # 600 s of the hour were used before the pause; the day away is not counted.
    assert stored(clocked, tid).deadline == START + 600 + 86_400 + 3000
    log = game(tc, tid, ben)["pace_log"]
    assert [(e["kind"], e["params"]) for e in log] == [
        ("clock_paused", {"by": "Ada"}),
        ("clock_resumed", {"by": "Ada"}),
    ]


def test_only_turn_tables_pause(tc: TestClient, ada: Player, ben: Player) -> None:
    t = open_game(tc, [ada, ben], {"mode": "live", "clock": "20+30"})
    r = tc.post(f"/api/tables/{t['id']}/clock/pause", headers=ada.headers)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_pace"


def test_concurrent_sweepers_hand_over_exactly_once(
    tc: TestClient, clocked: Any, ada: Player, ben: Player, database_url: str, tmp_path: Any
) -> None:
    """Two app instances on one database sweep the same expired deadlines at once."""
    from app.main import create_app
    from tests.conftest import make_settings

    tids = [open_game(tc, [ada, ben], {"mode": "turn", "hours": 1})["id"] for _ in range(4)]
    other = create_app(make_settings(database_url, tmp_path, deadline_sweep_seconds=0))
    sweepers = [clocked.state.sweeper, other.state.sweeper] * 3
    results: list[list[Any]] = [[] for _ in sweepers]
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(sweepers))

    def run(n: int) -> None:
        try:
            barrier.wait()
            results[n] = sweepers[n].sweep_once(START + 3600)
        except BaseException as exc:  # sqlite may refuse a writer while another writes
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(sweepers))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    other.state.db.dispose()
    # Whatever a sweeper could not do (sqlite "database is locked"), the next sweep does.
    rest = clocked.state.sweeper.sweep_once(START + 3600)
    handed = [(d.table_id, d.seat) for r in [*results, rest] for d in r]
    assert sorted(handed) == sorted((tid, 0) for tid in tids)
    with clocked.state.db.session() as s:
        events = s.scalars(select(TableEvent.table_id).where(TableEvent.kind == "seat_timed_out"))
        assert sorted(events) == sorted(tids)
    assert all(bot_levels(clocked, tid)[0] == "greedy" for tid in tids)
    if database_url.startswith("postgresql"):
        assert errors == []


def test_after_a_timeout_the_bot_plays_the_seat_at_once(
    tc: TestClient, clocked: Any, ada: Player, ben: Player
) -> None:
    """The sweep's notices (after its commit) wake the bot runner: the bot moves for Ben."""
    t = open_game(tc, [ada, ben], {"mode": "turn", "hours": 1})
    tid = t["id"]
    end_turn(tc, tid, ada)
    done = tc.portal.call(clocked.state.sweeper.sweep, START + 3600)  # type: ignore[union-attr]
    assert [d.seat for d in done] == [1]
    tc.portal.call(clocked.state.bots.idle)  # type: ignore[union-attr]
    with clocked.state.db.session() as s:
        ids = list(
            s.scalars(
                select(MoveRecord.move_id).where(MoveRecord.table_id == tid, MoveRecord.seat == 1)
            )
        )
    assert ids and all(i.startswith("bot:1:") for i in ids)
    g = game(tc, tid, ada)
    assert 0 in g["view"]["to_act"]
    # Ada's new window started when her turn came back; the table's deadline is hers.
    mine = g["clock"]["seats"][0]
    assert mine["running"] and mine["bank"] == 3600
    assert stored(clocked, tid).deadline == START + 3600 + 3600
