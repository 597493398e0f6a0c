"""Solo play against Victoria: her end-of-round step in rounds 2 to 6."""

from __future__ import annotations

from . import data
from .locations import advance_marker, marker_value
from .state import Ev, St


def victoria_step(st: St, events: Ev) -> None:
    """She delivers 1 stone and 1 bread (CP from both markers, both advance), then takes a title."""
    vic = st["victoria"]
    rnd: int = st["round"]
    cp = marker_value(st, "stone") + marker_value(st, "bread")
    advance_marker(st, "stone", None, events)
    advance_marker(st, "bread", None, events)
    vic["cp"] += cp
    events.append({"type": "victoria_delivered", "round": rnd, "cp": cp})
    title = data.VICTORIA_TITLES.get(rnd)
    if title is not None and st["nobility"][title]:
        card: int = st["nobility"][title].pop(0)
        vic["titles"].append([title, card])
        vic["cp"] += card
        events.append({"type": "victoria_title_taken", "round": rnd, "title": title, "cp": card})
