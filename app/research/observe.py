"""Observations: one seat's view (``rules.view_for``, the server's allow-list) as a fixed-length
list of numbers, every index named.

The input is the view and nothing else, so an observation can hold only what the seat is shown:
no other hand, deck order, pile order or seed can reach it (tests/research/test_secrets.py).
Seats are relative to the observer: ``p0`` is the observing seat, ``p1`` the next seat clockwise,
and so on; blocks of seats absent at the table are 0 with ``present`` 0. Counts and points are
raw numbers (not scaled); flags and one-hot blocks are 0 or 1. ``names()`` lists the index names
(docs/research-spaces.md is generated from it). Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from app import rules
from app.rules import data

MAX_SEATS = data.MAX_PLAYERS
PHASES = ("setup", "turns", "end_of_round", "finished")
DECISIONS = ("keep_favor", "event_option", "choose_resource", "place_councilor")
VIAS = ("move", "move1", "town_action")
VISIT_DONE = (
    "harvest",
    "castle_gift",
    "castle_book",
    "cathedral_donation",
    "deliver_stone",
    "deliver_bread",
    "deliver_wood",
    "market_gold",
    "market_books",
)
RONDEL_POSITIONS = 4
TOKENS = range(len(data.FAVOR_TOKENS))


class _Row:
    """Values with their names, appended in one fixed order whatever the view holds."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.values: list[float] = []

    def put(self, name: str, value: float | int | bool | None) -> None:
        self.names.append(name)
        self.values.append(float(value or 0))

    def one_hot(self, name: str, options: tuple[Any, ...] | range, value: Any) -> None:
        for option in options:
            self.put(f"{name}={option}", option == value)


def _rel(seat: int, me: int, n: int) -> int:
    return (seat - me) % n


def _encode(view: Mapping[str, Any]) -> _Row:
    row = _Row()
    me_view = view["me"]
    if me_view is None:
        raise ValueError("an observation is a seat's: view_for(state, seat) with a seat")
    me = int(me_view["seat"])
    n = int(view["players"])
    row.one_hot("players", range(1, MAX_SEATS + 1), n)
    row.one_hot("phase", PHASES, view["phase"])
    row.one_hot("round", range(data.ROUNDS + 1), view["round"])
    row.one_hot("statue", range(MAX_SEATS), _rel(int(view["statue"]), me, n))
    acting = {_rel(int(s), me, n) for s in view["to_act"]}
    for s in range(MAX_SEATS):
        row.put(f"to_act.p{s}", s in acting)
    opts = view["options"]
    row.put("options.building_start", opts["building_start"])
    row.put("options.random_locations", opts["random_locations"])
    row.put("options.full_selection", opts["full_selection"])
    row.one_hot("event", data.EVENT_IDS, (view["event"] or {}).get("id"))
    row.one_hot("event_top", data.EVENT_IDS, (view["event_top"] or {}).get("id"))
    row.put("events_left", view["events_left"])
    _board(row, view, me, n)
    for s in range(MAX_SEATS):
        seat = (me + s) % n if s < n else None
        _player(row, f"p{s}", None if seat is None else view["players_state"][seat], me, n)
    _own(row, me_view)
    _turn(row, view["turn"], me, n)
    vic = view["victoria"]
    row.put("victoria.present", vic is not None)
    row.put("victoria.cp", (vic or {}).get("cp"))
    row.put("victoria.titles", len((vic or {}).get("titles") or []))
    return row


def _board(row: _Row, view: Mapping[str, Any], me: int, n: int) -> None:
    rondels = list(view["rondels"].items())
    where: dict[str, tuple[int, int]] = {}
    for index, (_name, locs) in enumerate(rondels):
        for pos, loc in enumerate(locs):
            where[loc] = (index, pos)
    for loc in data.LOCATIONS:
        index, pos = where.get(loc, (-1, -1))
        row.one_hot(f"rondel.{loc}.rondel", range(2), index)
        row.one_hot(f"rondel.{loc}.position", range(RONDEL_POSITIONS), pos)
    for s in range(MAX_SEATS):
        seat = (me + s) % n if s < n else None
        places = list(view["councilors"][seat].values()) if seat is not None else []
        for loc in data.LOCATIONS:
            row.put(f"councilors.p{s}.{loc}", places.count(loc))
    for loc in data.COUNTRYSIDE:
        for hut, h in enumerate(view["huts"][loc]):
            occ = h["occupant"]
            row.one_hot(
                f"hut.{loc}.{hut}",
                ("empty", *range(MAX_SEATS)),
                "empty" if occ is None else _rel(int(occ), me, n),
            )
    markers = view["markers"]
    for marker in ("gift", "donation"):
        for r in data.RESOURCES:
            _marker(row, f"marker.{marker}.{r}", markers[marker][r])
    for marker in ("stone", "bread"):
        _marker(row, f"marker.{marker}", markers[marker])
    adv = view["advisors"]
    for a in data.ADVISORS:
        place = next((loc for loc, lst in adv["display"].items() if a in lst), None)
        row.one_hot(f"display.{a}", data.TOWN, place)
    row.one_hot("b_top", data.B_ADVISORS, adv["b_top"])
    row.put("b_left", adv["b_left"])
    for title in view["nobility"]:
        row.put(f"nobility.{title['id']}.top", title["top"])
        row.put(f"nobility.{title['id']}.left", title["left"])
    row.put("favor.pile", view["favor"]["pile"])
    row.put("favor.discard", view["favor"]["discard"])


def _marker(row: _Row, name: str, m: Mapping[str, Any]) -> None:
    row.put(f"{name}.value", m["value"])
    row.put(f"{name}.steps_left", m["steps_left"])
    row.put(f"{name}.removed", m["removed"])


def _player(row: _Row, name: str, pv: Mapping[str, Any] | None, me: int, n: int) -> None:
    p: Mapping[str, Any] = pv or {}
    row.put(f"{name}.present", pv is not None)
    for k in ("cp", "bp", "score"):
        row.put(f"{name}.{k}", p.get(k))
    for r in data.RESOURCES:
        row.put(f"{name}.resources.{r}", (p.get("resources") or {}).get(r))
    for g in data.GOODS:
        row.put(f"{name}.goods.{g}", (p.get("goods") or {}).get(g))
    row.put(f"{name}.craftsmen_left", p.get("craftsmen_left"))
    crafts = [c["location"] for c in p.get("craftsmen") or []]
    for loc in data.COUNTRYSIDE:
        row.put(f"{name}.craftsmen.{loc}", crafts.count(loc))
    advisors = set(p.get("advisors") or [])
    for a in data.ADVISORS:
        row.put(f"{name}.advisor.{a}", a in advisors)
    titles = {t["id"]: t["cp"] for t in p.get("titles") or []}
    for t in data.TITLES:
        row.put(f"{name}.title.{t}", titles.get(t))
    tokens = {tok["id"] for tok in p.get("favor_tokens") or []}
    for tok in TOKENS:
        row.put(f"{name}.favor_token.{tok}", tok in tokens)
    slots = p.get("slots") or {}
    for slot in data.SLOTS:
        row.one_hot(f"{name}.slot{slot}", data.ACTION_CARDS, slots.get(str(slot)))
    for k in ("hand_size", "deck_size", "turns_taken"):
        row.put(f"{name}.{k}", p.get(k))


def _own(row: _Row, me_view: Mapping[str, Any]) -> None:
    hand = list(me_view["hand"])
    for card in data.ACTION_CARDS:
        row.put(f"hand.{card}", hand.count(card))
    dec = me_view["decision"] or {}
    row.one_hot("decision", DECISIONS, dec.get("kind"))
    offered = {t["id"] for t in dec.get("tokens") or []}
    for t in TOKENS:
        row.put(f"decision.token.{t}", t in offered)


def _turn(row: _Row, turn: Mapping[str, Any] | None, me: int, n: int) -> None:
    t: Mapping[str, Any] = turn or {}
    row.put("turn.present", turn is not None)
    row.one_hot("turn.seat", range(MAX_SEATS), None if turn is None else _rel(t["seat"], me, n))
    row.put("turn.number", t.get("number"))
    row.one_hot("turn.card", data.ACTION_CARDS, t.get("card"))
    row.one_hot("turn.slot", data.SLOTS, t.get("slot"))
    row.put("turn.card_action_done", t.get("card_action_done"))
    row.put("turn.moved", t.get("moved"))
    bonus = t.get("bonus_used") or {}
    for b in ("raise_title", "hire_craftsman", "hire_advisor"):
        row.put(f"turn.bonus_used.{b}", bonus.get(b))
    used = set(t.get("advisors_used") or [])
    for a in data.PER_TURN_ADVISORS:
        row.put(f"turn.advisor_used.{a}", a in used)
    visit = t.get("visit") or {}
    row.one_hot("visit.location", data.LOCATIONS, visit.get("location"))
    row.one_hot("visit.via", VIAS, visit.get("via"))
    done = set(visit.get("done") or [])
    for kind in VISIT_DONE:
        row.put(f"visit.done.{kind}", kind in done)
    fresh = set(visit.get("fresh") or [])
    for tok in TOKENS:
        row.put(f"visit.fresh.{tok}", tok in fresh)


def encode(view: Mapping[str, Any]) -> list[float]:
    """The observation of the seat whose view this is (``view["me"]`` must be set)."""
    return _encode(view).values


@cache
def names() -> tuple[str, ...]:
    """The name of every index of an observation, in order."""
    state = rules.new_game(0, {"players": MAX_SEATS, "undo": False})
    return tuple(_encode(rules.view_for(state, 0)).names)


def size() -> int:
    return len(names())


def blocks() -> list[tuple[int, int, str]]:
    """The observation as runs of one name prefix: (first index, last index, prefix)."""
    out: list[tuple[int, int, str]] = []
    for i, name in enumerate(names()):
        head = name.split("=")[0] if "=" in name else name.rsplit(".", 1)[0]
        if out and out[-1][2] == head:
            out[-1] = (out[-1][0], i, head)
        else:
            out.append((i, i, head))
    return out
