"""What the others did while a seat was away: a structured summary of missed log entries.

``summarize(entries, viewer_seat)`` reads the log entries a seat receives (``events`` already
redacted by ``events_for`` for that seat) and gives one ``PlayerSummary`` per other seat that
acted (and Victoria in solo): the notable things done, in order, and the CP/BP steps. Items are
data (the browser words them); they copy only fields of the events given, and skip every event
that is still marked ``private``, so a summary never says more than the redacted events do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, Required, TypedDict

from .contracts import EngineEvent, TokenView

SummaryItem = TypedDict(
    "SummaryItem",
    {
        "kind": Required[str],
        "card": str,
        "slot": int,
        "councilor": str,
        "from": str,
        "to": str,
        "steps": int,
        "location": str,
        "via": str,
        "action": str,
        "paid": dict[str, int],
        "gained": dict[str, int],
        "cp": int,
        "bp": int,
        "resource": str | int | None,
        "bread": int,
        "token": TokenView,
        "title": str,
        "hut": int,
        "advisor": str,
        "event": str | None,
        "option": str,
        "count": int,
        "round": int,
    },
    total=False,
)


class LogEntry(TypedDict):
    """One missed move as the viewing seat receives it (``events`` passed through events_for)."""

    version: int
    seat: int | None  # the seat that moved
    move: dict[str, Any]
    events: list[EngineEvent]


class PlayerSummary(TypedDict):
    seat: int | None  # None for Victoria
    victoria: bool
    items: list[SummaryItem]
    cp: int  # CP steps over the missed moves (after moves taken back)
    bp: int


# event type -> (summary kind, fields copied); only events done by the entry's acting seat
_COPY: dict[str, tuple[str, tuple[str, ...]]] = {
    "card_played": ("card_played", ("card", "slot")),
    "card_action_taken": ("card_action", ("card",)),
    "councilor_moved": ("councilor_moved", ("councilor", "from", "to", "steps")),
    "visit_opened": ("visited", ("location", "via")),
    "harvested": ("harvested", ("location", "resource", "bread")),
    "favor_kept": ("favor_kept", ("token",)),
    "favor_cashed": ("favor_cashed", ("token",)),
    "title_raised": ("title_raised", ("title",)),
    "craftsman_hired": ("craftsman_hired", ("location", "hut")),
    "advisor_hired": ("advisor_hired", ("advisor", "location")),
    "advisor_used": ("advisor_used", ("advisor",)),
    "event_option_chosen": ("event_option_chosen", ("event", "option")),
    "event_declined": ("event_declined", ("event",)),
    "councilor_placed": ("councilor_placed", ("councilor", "location")),
    "resource_chosen": ("resource_chosen", ("resource",)),
}
# items that carry their effects: what was paid and gained, and the CP/BP steps
WITH_EFFECTS = frozenset(
    {
        "card_action",
        "visit_action",
        "harvested",
        "favor_cashed",
        "title_raised",
        "craftsman_hired",
        "advisor_hired",
        "advisor_used",
        "event_option_chosen",
    }
)
_VICTORIA: dict[str, tuple[str, tuple[str, ...]]] = {
    "victoria_delivered": ("victoria_delivered", ("round", "cp")),
    "victoria_title_taken": ("victoria_title_taken", ("round", "title", "cp")),
}
# ``why`` of the items/track events of a location visit action (docs/moves.md)
VISIT_ACTIONS = frozenset(
    {
        "castle_gift",
        "castle_book",
        "cathedral_donation",
        "deliver_stone",
        "deliver_bread",
        "deliver_wood",
        "market_gold",
        "market_books",
    }
)
VICTORIA = "victoria"
_EFFECTS = ("items_paid", "items_gained", "cp_gained", "cp_paid", "bp_gained")


@dataclass
class _Record:
    """What one log entry contributed: the acting seat's items and everyone's track steps."""

    seat: int | None
    undo: bool = False  # a ``took_back`` record: never itself taken back
    where_before: str | None = None  # the seat's open-visit location before this entry
    items: list[tuple[str, SummaryItem]] = field(default_factory=list)  # (who, item)
    steps: dict[str, list[int]] = field(default_factory=dict)  # who -> [cp, bp]

    def step(self, who: str, cp: int = 0, bp: int = 0) -> None:
        pair = self.steps.setdefault(who, [0, 0])
        pair[0] += cp
        pair[1] += bp


def _empty() -> SummaryItem:
    return {"kind": "", "paid": {}, "gained": {}, "cp": 0, "bp": 0}


def _apply_effect(item: SummaryItem, ev: Mapping[str, Any]) -> None:
    kind = ev["type"]
    if kind in ("items_paid", "items_gained"):
        bag = item["paid"] if kind == "items_paid" else item["gained"]
        for key, n in ev["items"].items():
            bag[key] = bag.get(key, 0) + int(n)
    elif kind == "bp_gained":
        item["bp"] += int(ev["amount"])
    else:
        item["cp"] += int(ev["amount"]) * (-1 if kind == "cp_paid" else 1)


class _Reader:
    """Reads one entry's events into items: effects before an item (its payment) and after it
    (its rewards) belong to it, e.g. a hut's cost, then its CP."""

    def __init__(self, rec: _Record, me: str, where: dict[str, str]) -> None:
        self.rec, self.me, self.where = rec, me, where
        self.pending = _empty()
        self.open: SummaryItem | None = None

    def add(self, item: SummaryItem) -> None:
        if item["kind"] in WITH_EFFECTS:
            pending = self.pending
            item["paid"], item["gained"] = pending["paid"], pending["gained"]
            item["cp"], item["bp"] = pending["cp"], pending["bp"]
            self.open = item
        else:
            self.open = None
        self.pending = _empty()
        self.rec.items.append((self.me, item))

    def effect(self, ev: Mapping[str, Any]) -> None:
        why = ev.get("why")
        if why in VISIT_ACTIONS and (self.open is None or self.open.get("action") != why):
            item: SummaryItem = {"kind": "visit_action", "action": str(why)}
            if self.me in self.where:
                item["location"] = self.where[self.me]
            self.add(item)
        _apply_effect(self.pending if self.open is None else self.open, ev)


def _record(
    seat: int | None, events: Iterable[Mapping[str, Any]], where: dict[str, str]
) -> _Record:
    """``where``: the location each seat last opened a visit of (kept across entries)."""
    rec = _Record(seat, where_before=where.get(str(seat)))
    reader = _Reader(rec, str(seat), where)
    for ev in events:
        if "private" in ev:
            continue  # not redacted for this seat: never read it
        kind = ev.get("type")
        who = str(ev["seat"]) if "seat" in ev else None
        if kind in ("cp_gained", "cp_paid", "bp_gained") and who is not None:
            amount = int(ev["amount"]) * (-1 if kind == "cp_paid" else 1)
            if kind == "bp_gained":
                rec.step(who, bp=amount)
            else:
                rec.step(who, cp=amount)
        if kind in _VICTORIA:
            name, keys = _VICTORIA[kind]
            rec.items.append((VICTORIA, _copy(name, ev, keys)))
            rec.step(VICTORIA, cp=int(ev.get("cp", 0)))
        elif who != reader.me:
            continue
        elif kind in _COPY:
            name, keys = _COPY[kind]
            if kind == "visit_opened":
                where[reader.me] = str(ev["location"])
            reader.add(_copy(name, ev, keys))
        elif kind in _EFFECTS:
            reader.effect(ev)
    return rec


def _copy(name: str, ev: Mapping[str, Any], keys: tuple[str, ...]) -> SummaryItem:
    item: dict[str, Any] = {"kind": name}
    for key in keys:
        if key in ev:
            value = ev[key]
            item[key] = deepcopy(value)
    return item  # type: ignore[return-value]


def summarize(entries: Iterable[LogEntry], viewer_seat: int | None) -> list[PlayerSummary]:
    """One summary per other acting seat (and Victoria), in order of their first action.

    Each entry is ``{"version", "seat", "move", "events"}`` as the viewing seat receives it.
    A ``moves_taken_back`` event removes what the last ``count`` entries of that seat did (those
    within ``entries``) and leaves a ``took_back`` item with the count.
    """
    records: list[_Record] = []
    where: dict[str, str] = {}
    for entry in entries:
        seat = entry["seat"]
        events: list[Mapping[str, Any]] = list(entry["events"])
        back = next(
            (ev for ev in events if ev.get("type") == "moves_taken_back" and "private" not in ev),
            None,
        )
        if back is not None:
            left = int(back["count"])
            who = str(back["seat"])
            i = len(records) - 1
            while left and i >= 0:
                if records[i].seat == back["seat"] and not records[i].undo:
                    popped = records.pop(i)
                    left -= 1
                    where.pop(who, None)
                    if popped.where_before is not None:
                        where[who] = popped.where_before
                i -= 1
            if left:  # it went back past the first entry: where that seat is is unknown
                where.pop(who, None)
            rec = _Record(back["seat"], undo=True)
            rec.items.append(
                (str(back["seat"]), {"kind": "took_back", "count": int(back["count"])})
            )
            records.append(rec)
            continue
        records.append(_record(seat if isinstance(seat, int) else None, events, where))
    order: list[str] = []
    items: dict[str, list[SummaryItem]] = {}
    steps: dict[str, list[int]] = {}
    for rec in records:
        for who, item in rec.items:
            if who not in items:
                order.append(who)
                items[who] = []
            items[who].append(item)
        for who, (cp, bp) in rec.steps.items():
            pair = steps.setdefault(who, [0, 0])
            pair[0] += cp
            pair[1] += bp
    out: list[PlayerSummary] = []
    for who in order:
        if viewer_seat is not None and who == str(viewer_seat):
            continue
        cp, bp = steps.get(who, [0, 0])
        is_victoria = who == VICTORIA
        out.append(
            {
                "seat": None if is_victoria else int(who),
                "victoria": is_victoria,
                "items": items[who],
                "cp": cp,
                "bp": bp,
            }
        )
    return out
