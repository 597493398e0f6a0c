"""The fixed action space: every move of the vocabulary (docs/moves.md) as one integer.

The table is built once, in a fixed order, from the printed components (``app.rules.data``): each
move kind with every value its fields can take in any game, payments included. An index stands
for one wire move; ``move_of(i)`` is that move, ``action_of(move)`` its index, and
``legal_actions(state, seat)`` the indices of the engine's own legal moves — the engine stays the
only judge. Left out: ``undo`` (research games are played without taking moves back).

Payments are enumerated as every payment the engine could list for that field: for a fixed cost
(a hut, an advisor, a marker's value, an event option) the engine's own ``pays_for`` on a seat
that holds plenty of everything, for every discount the rules allow; where the Scholar (any
resources) or the card's own rule (any resources) applies, every multiset of that size. Standard
library only (the table, the masks and the docs need no numpy).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from app import rules
from app.rules import data
from app.rules.state import St, pays_for

Wire = rules.EncodedMove  # a move in wire form

LEFT_OUT = frozenset({"undo"})
MARKER_VALUES = (1, 2, 3, 4)  # every value a gift or donation marker shows (its last: the board)
COUNCILORS = ("countryside", "town", "a", "b")  # the standard game's keys, then the variant's

# A seat that can afford any payment the rules know, so ``pays_for`` lists every way to pay.
_RICH: St = {
    "res": dict.fromkeys(data.RESOURCES, 9),
    "goods": dict.fromkeys(data.GOODS, 9),
}


def key(move: Mapping[str, Any]) -> str:
    """The canonical text of a wire move (field order does not matter)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def _multisets(keys: tuple[str, ...], size: int) -> Iterator[dict[str, int]]:
    """Every payment of exactly ``size`` units drawn from ``keys``, in a fixed order."""
    if size == 0:
        yield {}
        return
    if not keys:
        return
    first, rest = keys[0], keys[1:]
    for n in range(size, -1, -1):
        for tail in _multisets(rest, size - n):
            yield {first: n, **tail} if n else dict(tail)


def _ordered(pay: Mapping[str, int]) -> dict[str, int]:
    return {k: pay[k] for k in data.PAY_KEYS if pay.get(k)}


def _union(*groups: Iterator[dict[str, int]] | list[dict[str, int]]) -> list[dict[str, int]]:
    out: list[dict[str, int]] = []
    seen: set[str] = set()
    for group in groups:
        for pay in group:
            pay = _ordered(pay)
            if key(pay) not in seen:
                seen.add(key(pay))
                out.append(pay)
    return out


def _exact(cost: Mapping[str, int], discount: int = 0) -> list[dict[str, int]]:
    return pays_for(_RICH, cost, discount)


def _hire_pays(cost: Mapping[str, int], discounts: tuple[int, ...]) -> list[dict[str, int]]:
    """A hire's payments: the exact ones for each discount, and the Scholar's (any resources or
    gold, only the count must match)."""
    size = sum(cost.values())
    groups: list[Iterator[dict[str, int]] | list[dict[str, int]]] = []
    for d in discounts:
        groups.append(_exact(cost, d))
        groups.append(_multisets(data.PAY_KEYS, max(0, size - d)))
    return _union(*groups)


def _build() -> list[Wire]:
    out: list[Wire] = []
    for card in data.ACTION_CARDS:
        for slot in data.SLOTS:
            out.append({"kind": "play_card", "card": card, "slot": slot})
    # card actions: the take_* cards, the gold card, move1, town_action, hire_discount
    out.append({"kind": "card_action"})
    for n in sorted(int(k) for k in data.EFFECTS["gold_card"]):
        for pay in _multisets(data.RESOURCES, n):
            out.append({"kind": "card_action", "pay": pay})
    for councilor in COUNCILORS:
        out.append({"kind": "card_action", "councilor": councilor})
    for loc in data.TOWN:
        out.append({"kind": "card_action", "location": loc})
    card_discounts = (1, 2)  # the card's discount, and the event's on advisors
    for loc in data.COUNTRYSIDE:
        for hut, cost in enumerate(data.HUTS[loc]):
            for pay in _hire_pays(cost, (data.EFFECTS["hire_discount"],)):
                out.append(
                    {
                        "kind": "card_action",
                        "hire": "craftsman",
                        "location": loc,
                        "hut": hut,
                        "pay": pay,
                    }
                )
    for adv in data.ADVISORS:
        for pay in _hire_pays(data.ADVISOR_COST[adv], card_discounts):
            out.append({"kind": "card_action", "hire": "advisor", "advisor": adv, "pay": pay})
    for councilor in COUNCILORS:
        out.append({"kind": "move", "councilor": councilor})
    out.append({"kind": "raise_title"})
    for loc in data.COUNTRYSIDE:
        for hut, cost in enumerate(data.HUTS[loc]):
            for pay in _hire_pays(cost, (0,)):
                out.append({"kind": "hire_craftsman", "location": loc, "hut": hut, "pay": pay})
    for adv in data.ADVISORS:
        for pay in _hire_pays(data.ADVISOR_COST[adv], (0, 1)):
            out.append({"kind": "hire_advisor", "advisor": adv, "pay": pay})
    out.extend(_advisor_abilities())
    out.append({"kind": "end_turn"})
    out.extend(_visit_moves())
    out.extend(_decisions())
    return out


def _advisor_abilities() -> list[Wire]:
    fx = data.EFFECTS
    out: list[Wire] = []
    for bread in sorted(fx["baker"], key=int):
        for pay in _exact(fx["baker"][bread]):
            out.append({"kind": "use_advisor", "advisor": "baker", "bread": int(bread), "pay": pay})
    for pay in _multisets(data.PAY_KEYS, fx["schoolmarm"]["resources"]):
        out.append({"kind": "use_advisor", "advisor": "schoolmarm", "pay": pay})
    out.append({"kind": "use_advisor", "advisor": "bailiff"})
    for adv in ("dressmaker", "landlord"):
        for pay in _exact({"cloth": fx[adv]["cloth"]}):
            out.append({"kind": "use_advisor", "advisor": adv, "pay": pay})
    for pay in _multisets(data.PAY_KEYS, fx["merchant"]["resources"]):
        for take in data.RESOURCES:
            if not pay.get(take):
                out.append({"kind": "use_advisor", "advisor": "merchant", "pay": pay, "take": take})
    for give in ("ring", "gold"):
        out.append({"kind": "use_advisor", "advisor": "chamberlain", "give": give})
    return out


def _visit_moves() -> list[Wire]:
    out: list[Wire] = []
    for n in range(data.MAX_OWN_CRAFTSMEN + 1):
        for bread in range(n + 1):
            extra = ["resource"] * (n - bread) + ["bread"] * bread
            out.append({"kind": "harvest", "extra": extra})
            for pay in _exact({"grain": bread}) if bread else []:
                if pay != {"grain": bread}:
                    out.append({"kind": "harvest", "extra": extra, "pay": pay})
    for kind in ("castle_gift",):
        out.extend(_marker_moves(kind))
    out.append({"kind": "castle_book"})
    out.extend(_marker_moves("cathedral_donation"))
    for pay in _exact({"stone": 1}):
        out.append({"kind": "deliver_stone", "pay": pay})
    for count in range(1, data.EFFECTS["deliver_bread_max"] + 1):
        out.append({"kind": "deliver_bread", "count": count})
    for count in sorted(data.WOOD_BP):
        for pay in _exact({"wood": count}):
            out.append({"kind": "deliver_wood", "count": count, "pay": pay})
    base: int = data.EFFECTS["market_gold"]["resources"]
    extra_n = max(int(e.get("market_extra", 0)) for e in data.EVENT_EFFECT.values())
    for n in range(base, base + extra_n + 1):
        for pay in _multisets(data.RESOURCES, n):
            out.append({"kind": "market_gold", "pay": pay})
    for count in sorted(data.MARKET_BOOKS_CP):
        out.append({"kind": "market_books", "count": count})
    for token in range(len(data.FAVOR_TOKENS)):
        out.append({"kind": "cash_favor", "token": token})
    out.append({"kind": "end_visit"})
    return out


def _marker_moves(kind: str) -> list[Wire]:
    out: list[Wire] = []
    for r in data.RESOURCES:
        pays = _union(*(_exact({r: v}) for v in MARKER_VALUES))
        for pay in pays:
            out.append({"kind": kind, "resource": r, "pay": pay})
    return out


def _decisions() -> list[Wire]:
    out: list[Wire] = []
    for token in range(len(data.FAVOR_TOKENS)):
        out.append({"kind": "keep_favor", "token": token})
    seen: set[str] = set()
    for event in data.EVENT_IDS:
        for name, opt in data.EVENT_EFFECT[event].get("options", {}).items():
            moves: list[Wire] = (
                [{"kind": "event_option", "option": name, "pay": p} for p in _exact(opt["pay"])]
                if "pay" in opt
                else [{"kind": "event_option", "option": name}]
            )
            for m in moves:
                if key(m) not in seen:
                    seen.add(key(m))
                    out.append(m)
    out.append({"kind": "decline"})
    for r in data.RESOURCES:
        out.append({"kind": "choose_resource", "resource": r})
    for loc in data.LOCATIONS:
        out.append({"kind": "place_councilor", "location": loc})
        for leave in data.LOCATIONS:
            out.append({"kind": "place_councilor", "location": loc, "from": leave})
    return out


@cache
def table() -> tuple[tuple[Wire, ...], dict[str, int]]:
    moves = _build()
    index: dict[str, int] = {}
    for i, move in enumerate(moves):
        k = key(move)
        assert k not in index, f"the action table lists {k} twice"
        index[k] = i
    return tuple(moves), index


def size() -> int:
    """How many actions there are (``Discrete(size())``)."""
    return len(table()[0])


def move_of(action: int) -> Wire:
    """The wire move an action stands for (a fresh copy)."""
    move = table()[0][action]
    return json.loads(key(move))  # type: ignore[no-any-return]


def action_of(move: Mapping[str, Any]) -> int:
    """The action of a wire move; KeyError for ``undo`` or a move no game can have."""
    return table()[1][key(move)]


def legal_actions(state: rules.GameState, seat: int) -> list[int]:
    """The engine's legal moves for ``seat`` as actions, ascending (empty: not its turn)."""
    index = table()[1]
    return sorted(
        index[key(rules.encode_move(m))]
        for m in rules.legal_moves(state, seat)
        if m.kind not in LEFT_OUT
    )


def blocks() -> list[tuple[int, int, str]]:
    """The table as runs of one kind: (first index, last index, kind), in order."""
    out: list[tuple[int, int, str]] = []
    for i, move in enumerate(table()[0]):
        label = _label(move)
        if out and out[-1][2] == label:
            out[-1] = (out[-1][0], i, label)
        else:
            out.append((i, i, label))
    return out


def _label(move: Mapping[str, Any]) -> str:
    kind = str(move["kind"])
    if kind == "card_action":
        if "hire" in move:
            return f"card_action (hire_discount: {move['hire']})"
        for name, card in (("pay", "gold"), ("councilor", "move1"), ("location", "town_action")):
            if name in move:
                return f"card_action ({card})"
        return "card_action (take_* cards)"
    if kind == "use_advisor":
        return f"use_advisor ({move['advisor']})"
    return kind
