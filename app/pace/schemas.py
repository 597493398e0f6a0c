"""The pace a table is opened with (strict option models) and the clock as clients see it.

``pace`` in the table options is one of:

- ``{"mode": "live", "clock": "none" | "10+20" | "20+30"}``: a chess clock per player, a time
  bank (minutes) plus an increment per turn (seconds); ``none`` (the default) is no clock.
- ``{"mode": "turn", "hours": 1 | 12 | 24 | 72}``: a deadline per move window; the host may
  pause the table's clock (vacation) and resume it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

from app.strict import Strict

LivePreset = Literal["none", "10+20", "20+30"]
TurnHours = Literal[1, 12, 24, 72]
# preset -> (bank seconds, increment seconds)
LIVE_PRESETS: dict[str, tuple[float, float]] = {"10+20": (600.0, 20.0), "20+30": (1200.0, 30.0)}


class LivePace(Strict):
    mode: Literal["live"] = "live"
    clock: LivePreset = "none"


class TurnPace(Strict):
    mode: Literal["turn"]
    hours: TurnHours = 24


PaceOption = Annotated[LivePace | TurnPace, Field(discriminator="mode")]


class PaceOptions(TypedDict, total=False):
    """``pace`` in a table's options as stored: a ``LivePace`` or a ``TurnPace`` dumped (a table
    opened another way may leave keys out: their defaults hold)."""

    mode: Literal["live", "turn"]
    clock: str
    hours: int


# The clock as clients see it and the pace log: one shape each, as the pace builds them and as
# responses and frames declare them (``typing_extensions``' ``TypedDict``, which pydantic reads;
# each with its own config, so that a frame's does not close it).
@with_config(ConfigDict(extra="ignore"))
class SeatClockOut(TypedDict):
    seat: int
    # Seconds left on this seat's clock at ``since`` (negative: it ran out).
    bank: float
    # The clock of this seat runs now (it is to act, held by a person, the table not paused).
    running: bool
    # When this seat's time runs out (UTC), if its clock runs.
    deadline: str | None
    timed_out: bool


@with_config(ConfigDict(extra="ignore"))
class ClockOut(TypedDict):
    """A table's clock: a client ticks ``deadline - now`` for running seats (the server judges)."""

    mode: Literal["live", "turn"]
    preset: str
    paused: bool
    since: str
    increment: float
    window: float
    seats: list[SeatClockOut]


@with_config(ConfigDict(extra="ignore"))
class PaceEventOut(TypedDict):
    """A line of the table's pace log: ``seat_timed_out`` (params: seat, name, level),
    ``clock_paused``, ``clock_resumed`` (params: by, the host's name)."""

    kind: str
    seat: int | None
    params: dict[str, object]
    at: str | None
