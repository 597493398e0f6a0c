"""The clock accounting, pure: bank, increment, only the seats to act, vacation, reclaim."""

from __future__ import annotations

import pytest

from app.pace import clock as pc

T0 = 1_000_000.0


def live() -> pc.ClockBlob:
    blob = pc.initial({"mode": "live", "clock": "10+20"}, 3, [0], T0)
    assert blob is not None
    return blob


def test_no_clock_by_default() -> None:
    assert pc.initial(None, 2, [0], T0) is None
    assert pc.initial({"mode": "live", "clock": "none"}, 2, [0], T0) is None


def test_only_the_seats_to_act_are_charged_and_the_increment_comes_when_the_turn_passes() -> None:
    blob = live()
    assert pc.table_deadline(blob, {0, 1, 2}) == T0 + 600
    mid = pc.after_move(blob, [0], T0 + 30)  # a move within seat 0's turn: no increment yet
    assert mid["left"] == [570.0, 600.0, 600.0]
    passed = pc.after_move(mid, [1], T0 + 50)
    assert passed["left"] == [550.0 + 20.0, 600.0, 600.0]
    assert passed["acting"] == [1]
    assert pc.seat_deadlines(passed, {0, 1, 2}) == {1: T0 + 50 + 600}


def test_several_seats_to_act_all_run_and_a_bot_seat_has_no_deadline() -> None:
    blob = pc.after_move(live(), [1, 2], T0 + 10)
    later = pc.settle(blob, T0 + 110)
    assert later["left"][1:] == [500.0, 500.0]
    assert pc.seat_deadlines(blob, {0, 1}) == {1: T0 + 10 + 600}
    assert pc.table_deadline(blob, {0}) is None


def test_turn_mode_gives_each_window_in_full_and_vacation_is_not_counted() -> None:
    blob = pc.initial({"mode": "turn", "hours": 1}, 2, [0], T0)
    assert blob is not None and blob["window"] == 3600
    blob = pc.after_move(blob, [1], T0 + 3000)
    assert blob["left"][1] == 3600 and pc.table_deadline(blob, {0, 1}) == T0 + 6600
    paused = pc.pause(blob, T0 + 3600)  # 600 s of seat 1's hour used
    assert pc.table_deadline(paused, {0, 1}) is None
    assert pc.expired(paused, {0, 1}, T0 + 99_999) == []
    resumed = pc.resume(paused, T0 + 50_000)
    assert resumed["left"][1] == 3000
    assert pc.table_deadline(resumed, {0, 1}) == T0 + 53_000
    assert pc.expired(resumed, {0, 1}, T0 + 52_999) == []
    assert pc.expired(resumed, {0, 1}, T0 + 53_000) == [1]


def test_a_seat_that_ran_out_gets_no_increment_and_a_minute_when_reclaimed() -> None:
    blob = pc.timed_out(live(), [0], T0 + 600)
    assert blob["left"][0] == 0 and blob["timed_out"] == [0]
    passed = pc.after_move(blob, [1], T0 + 601)
    assert passed["left"][0] == -1.0
    back = pc.reclaimed(passed, 0, T0 + 700)
    assert back["left"][0] == pc.RECLAIM_FLOOR_SECONDS and back["timed_out"] == []


def test_time_never_runs_backwards() -> None:
    blob = pc.settle(live(), T0 - 50)
    assert blob["left"][0] == 600 and blob["since"] == T0


@pytest.mark.parametrize("preset", ["10+20", "20+30"])
def test_public_clock_says_deadlines_and_banks(preset: str) -> None:
    blob = pc.initial({"mode": "live", "clock": preset}, 2, [1], T0)
    out = pc.public(blob, {0, 1})
    assert out is not None
    assert out["seats"][0] == {
        "seat": 0,
        "bank": blob["left"][0],  # type: ignore[index]
        "running": False,
        "deadline": None,
        "timed_out": False,
    }
    assert out["seats"][1]["running"] and out["seats"][1]["deadline"].startswith("1970-01-12")
