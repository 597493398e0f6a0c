"""Where each point came from: a player's CP and BP split by source, kept as the game goes.

Every change of a track is booked to exactly one source, so a player's breakdown sums to their
CP and BP at every moment. The state keeps it per player under ``"points"`` as
``{"cp": {source: n}, "bp": {source: n}}`` with only the sources that changed the track; a
player record from before the breakdown was kept has none, and counts its tracks as
``unrecorded`` until then. Views list every source of ``SOURCES`` (zero where none).
"""

from __future__ import annotations

from typing import Any

from . import data

# The order of the chart and of the view's keys.
SOURCES: tuple[str, ...] = (
    "start",  # BP of the building track's start value (option building_start)
    "titles",  # nobility titles raised
    "craftsmen",  # craftsmen hired
    "advisors",  # advisors hired, their immediate BP and their abilities (Mayoress included)
    "deliveries",  # stone, bread and wood delivered to the construction site
    "books",  # a book handed in at the castle, books discarded at the market
    "favor",  # favor tokens cashed
    "events",  # round events
    "paid",  # CP paid away (the Landlord turns CP into BP): never above 0
    "leftovers",  # final scoring: leftover goods, favor tokens and resources
    "unrecorded",  # points from before the breakdown was kept (older stored games)
)

_WHY: dict[str, str] = {
    "title": "titles",
    "craftsman": "craftsmen",
    "advisor": "advisors",
    "mayoress": "advisors",
    "deliver_stone": "deliveries",
    "deliver_bread": "deliveries",
    "deliver_wood": "deliveries",
    "castle_book": "books",
    "market_books": "books",
    "favor": "favor",
    "event": "events",
}


def source_of(why: str) -> str:
    """The source a track change with this ``why`` (the engine's event reason) is booked to."""
    source = _WHY.get(why) or ("advisors" if why in data.ADVISORS else None)
    if source is None:
        raise ValueError(f"no point source for {why!r}")
    return source


def _recorded(p: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The stored breakdown, or the one of a record from before it was kept."""
    got: dict[str, dict[str, int]] | None = p.get("points")
    if got is not None:
        return got
    return {track: ({"unrecorded": p[track]} if p[track] else {}) for track in ("cp", "bp")}


def start_points(bp: int) -> dict[str, dict[str, int]]:
    """The breakdown of a new player record: only the building track's start value."""
    return {"cp": {}, "bp": {"start": bp} if bp else {}}


def book(p: dict[str, Any], track: str, source: str, amount: int) -> None:
    """Book ``amount`` (negative for points paid away) of ``track`` to ``source``: call it just
    before the track changes (a record without a breakdown counts its tracks so far as
    ``unrecorded``)."""
    if not amount:
        return
    points = _recorded(p)
    p["points"] = points
    per = points[track]
    n = per.get(source, 0) + amount
    if n:
        per[source] = n
    else:
        del per[source]


def by_source(p: dict[str, Any], track: str, extra: dict[str, int] | None = None) -> dict[str, int]:
    """Every source of ``SOURCES`` with its points on ``track`` (plus ``extra``), in order."""
    per = _recorded(p)[track]
    add = extra or {}
    return {s: per.get(s, 0) + add.get(s, 0) for s in SOURCES}


def copy_points(points: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {"cp": dict(points["cp"]), "bp": dict(points["bp"])}
