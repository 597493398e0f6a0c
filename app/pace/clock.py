"""Clock accounting, pure: a stored clock blob, settled at each move with the seats to act.

The blob (JSON in ``game_table.clock``) keeps, per seat, the seconds ``left`` at the moment
``since``; the seats in ``acting`` (the engine's ``to_act`` at ``since``) are the ones whose
clock runs, unless the table is ``paused``. Live: a seat keeps its bank across turns and gains
the increment when its turn passes. Turn: a seat that comes to act gets the full window.
A seat's deadline is ``since + left``; the table's stored deadline is the earliest deadline of
a seat held by a person (a bot's seat never times out).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import UTC, datetime
from typing import Literal, TypedDict

from app.pace.schemas import LIVE_PRESETS, ClockOut, PaceOptions

# A reclaimed seat whose time ran out starts again with at least this much.
RECLAIM_FLOOR_SECONDS = 60.0


class ClockBlob(TypedDict):
    mode: Literal["live", "turn"]
    preset: str
    inc: float
    window: float
    since: float
    paused: bool
    acting: list[int]
    left: list[float]
    timed_out: list[int]


def iso_at(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat()


def initial(
    pace: PaceOptions | None, seat_count: int, to_act: Iterable[int], now: float
) -> ClockBlob | None:
    """The clock of a game starting now; None when the table plays without one."""
    pace = pace or {}
    if pace.get("mode", "live") == "turn":
        window = float(int(pace.get("hours", 24)) * 3600)
        return {
            "mode": "turn",
            "preset": f"{int(pace.get('hours', 24))}h",
            "inc": 0.0,
            "window": window,
            "since": now,
            "paused": False,
            "acting": sorted(to_act),
            "left": [window] * seat_count,
            "timed_out": [],
        }
    preset = str(pace.get("clock", "none"))
    if preset not in LIVE_PRESETS:
        return None
    bank, inc = LIVE_PRESETS[preset]
    return {
        "mode": "live",
        "preset": preset,
        "inc": inc,
        "window": 0.0,
        "since": now,
        "paused": False,
        "acting": sorted(to_act),
        "left": [bank] * seat_count,
        "timed_out": [],
    }


def copy(blob: ClockBlob) -> ClockBlob:
    out = dict(blob)
    out["acting"] = list(blob["acting"])
    out["left"] = list(blob["left"])
    out["timed_out"] = list(blob["timed_out"])
    return out  # type: ignore[return-value]


def settle(blob: ClockBlob, now: float) -> ClockBlob:
    """A copy with the running seats charged the time since ``since`` (none while paused)."""
    out = copy(blob)
    elapsed = max(0.0, now - blob["since"])
    if not blob["paused"] and elapsed:
        for seat in blob["acting"]:
            out["left"][seat] -= elapsed
    out["since"] = max(now, blob["since"])
    return out


def after_move(blob: ClockBlob, to_act: Iterable[int], now: float) -> ClockBlob:
    """The clock after a move at ``now`` that left ``to_act`` to act: seats whose turn passed
    gain the increment (live); seats that came to act get the full window (turn)."""
    out = settle(blob, now)
    before = set(blob["acting"])
    after = sorted(to_act)
    for seat in before.difference(after):
        if out["mode"] == "live" and out["left"][seat] > 0:
            out["left"][seat] += out["inc"]
    if out["mode"] == "turn":
        for seat in set(after).difference(before):
            out["left"][seat] = out["window"]
    out["acting"] = after
    return out


def seat_deadlines(blob: ClockBlob | None, humans: Collection[int]) -> dict[int, float]:
    """seat -> the instant its time runs out, for the running seats held by a person."""
    if blob is None or blob["paused"]:
        return {}
    return {s: blob["since"] + blob["left"][s] for s in blob["acting"] if s in humans}


def table_deadline(blob: ClockBlob | None, humans: Collection[int]) -> float | None:
    """The earliest deadline of the table (what the sweeper looks for), or None."""
    found = seat_deadlines(blob, humans)
    return min(found.values()) if found else None


def expired(blob: ClockBlob, humans: Collection[int], now: float) -> list[int]:
    return sorted(s for s, at in seat_deadlines(blob, humans).items() if at <= now)


def pause(blob: ClockBlob, now: float) -> ClockBlob:
    out = settle(blob, now)
    out["paused"] = True
    return out


def resume(blob: ClockBlob, now: float) -> ClockBlob:
    out = copy(blob)
    out["paused"] = False
    out["since"] = max(now, blob["since"])  # paused time is not counted
    return out


def timed_out(blob: ClockBlob, seats: Iterable[int], now: float) -> ClockBlob:
    out = settle(blob, now)
    out["timed_out"] = sorted(set(out["timed_out"]).union(seats))
    return out


def reclaimed(blob: ClockBlob, seat: int, now: float) -> ClockBlob:
    """A person takes their seat back: a seat whose time ran out starts again with a window
    (turn) or the increment, at least a minute (live)."""
    out = settle(blob, now)
    if out["left"][seat] <= 0:
        floor = out["window"] if out["mode"] == "turn" else max(out["inc"], RECLAIM_FLOOR_SECONDS)
        out["left"][seat] = floor
    out["timed_out"] = [s for s in out["timed_out"] if s != seat]
    return out


def public(blob: ClockBlob | None, humans: Collection[int]) -> ClockOut | None:
    """The clock as every viewer may see it (nothing in it is secret)."""
    if blob is None:
        return None
    deadlines = seat_deadlines(blob, humans)
    return {
        "mode": blob["mode"],
        "preset": blob["preset"],
        "paused": blob["paused"],
        "since": iso_at(blob["since"]),
        "increment": blob["inc"],
        "window": blob["window"],
        "seats": [
            {
                "seat": seat,
                "bank": round(left, 3),
                "running": seat in deadlines,
                "deadline": iso_at(deadlines[seat]) if seat in deadlines else None,
                "timed_out": seat in blob["timed_out"],
            }
            for seat, left in enumerate(blob["left"])
        ],
    }
