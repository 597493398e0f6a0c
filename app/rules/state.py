"""The game state container, the seeded RNG and the small helpers every rule module shares.

The state is one JSON-ready tree of dicts, lists, ints, strings, bools and ``None`` held by
``GameState``. ``apply_move`` changes a copy of the tree (app/rules/copying.py) and wraps the
result in a new ``GameState``; the input is never touched.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from . import data
from .breakdown import book, source_of
from .moves import IllegalMoveError

St = dict[str, Any]
Ev = list[dict[str, Any]]


class GameState:
    """An immutable handle on one game position. Compare with ``==``; copy is never needed."""

    __slots__ = ("_d",)

    def __init__(self, tree: St) -> None:
        self._d = tree

    @property
    def tree(self) -> St:
        """The raw tree (read only by convention; rule code copies before changing it)."""
        return self._d

    @property
    def players(self) -> int:
        n: int = self._d["players"]
        return n

    @property
    def phase(self) -> str:
        p: str = self._d["phase"]
        return p

    @property
    def round(self) -> int:
        r: int = self._d["round"]
        return r

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._d == other._d

    def __hash__(self) -> int:
        return hash(json.dumps(self._d, sort_keys=True))

    def __repr__(self) -> str:
        return f"GameState(players={self.players}, phase={self.phase!r}, round={self.round})"


# ---------------------------------------------------------------------------------------------
# Randomness: seed + draw counter; Fisher-Yates on random.Random.random() only.


def rng_next(st: St) -> random.Random:
    """A fresh generator for the next random draw; advances the draw counter in the state."""
    rng = st["rng"]
    gen = random.Random(f"emara/{rng['seed']}/{rng['draws']}")
    rng["draws"] += 1
    return gen


def shuffle(st: St, items: list[Any]) -> list[Any]:
    """A shuffled copy of ``items`` (Fisher-Yates on ``random()``)."""
    out = list(items)
    gen = rng_next(st)
    for i in range(len(out) - 1, 0, -1):
        j = int(gen.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def pick_index(st: St, n: int) -> int:
    gen = rng_next(st)
    return min(n - 1, int(gen.random() * n))


# ---------------------------------------------------------------------------------------------
# Players, tracks and holdings.


def player(st: St, seat: int) -> St:
    p: St = st["ps"][seat]
    return p


def event_effect(st: St, key: str) -> Any:
    """The value of a round-event effect active this round, or ``None``."""
    ev = st["event"]
    if ev is None:
        return None
    return data.EVENT_EFFECT[ev].get(key)


def gain_cp(st: St, seat: int, amount: int, why: str, events: Ev) -> None:
    if amount <= 0:
        return
    p = player(st, seat)
    book(p, "cp", source_of(why), amount)
    p["cp"] += amount
    events.append({"type": "cp_gained", "seat": seat, "amount": amount, "why": why})


def lose_cp(st: St, seat: int, amount: int, why: str, events: Ev) -> None:
    p = player(st, seat)
    amount = min(amount, p["cp"])
    book(p, "cp", "paid", -amount)
    p["cp"] -= amount
    events.append({"type": "cp_paid", "seat": seat, "amount": amount, "why": why})


def bp_modifier(st: St, seat: int) -> int:
    mod = 0
    if "toolmaker" in player(st, seat)["advisors"]:
        mod += data.EFFECTS["toolmaker_bp"]
    ev_mod = event_effect(st, "bp_modifier")
    if ev_mod is not None:
        mod += int(ev_mod)
    return mod


def gain_bp(st: St, seat: int, base: int, why: str, events: Ev) -> None:
    """Gain BP during play: Toolmaker and the round event modify every gain (never below 0)."""
    amount = max(0, base + bp_modifier(st, seat))
    p = player(st, seat)
    book(p, "bp", source_of(why), amount)
    p["bp"] += amount
    events.append({"type": "bp_gained", "seat": seat, "amount": amount, "base": base, "why": why})


def count_of(p: St, key: str) -> int:
    if key in p["res"]:
        n: int = p["res"][key]
        return n
    g: int = p["goods"][key]
    return g


def add_items(p: St, items: Mapping[str, int]) -> None:
    for key, n in items.items():
        if key in p["res"]:
            p["res"][key] += n
        else:
            p["goods"][key] += n


def gain_items(st: St, seat: int, items: Mapping[str, int], why: str, events: Ev) -> None:
    items = {k: v for k, v in items.items() if v}
    if not items:
        return
    add_items(player(st, seat), items)
    events.append({"type": "items_gained", "seat": seat, "items": dict(items), "why": why})


def spend_items(st: St, seat: int, items: Mapping[str, int], why: str, events: Ev) -> None:
    """Hand over resources/goods; raises ``cannot_afford`` when the player lacks them."""
    p = player(st, seat)
    items = {k: v for k, v in items.items() if v}
    for key, n in items.items():
        if count_of(p, key) < n:
            raise IllegalMoveError("cannot_afford", f"not enough {key}")
    for key, n in items.items():
        if key in p["res"]:
            p["res"][key] -= n
        else:
            p["goods"][key] -= n
    if items:
        events.append({"type": "items_paid", "seat": seat, "items": dict(items), "why": why})


# ---------------------------------------------------------------------------------------------
# Payments: resources, gold as a wildcard for any resource.


def cost_size(cost: Mapping[str, int]) -> int:
    return sum(cost.values())


def pay_settles(
    pay: Mapping[str, int],
    cost: Mapping[str, int],
    discount: int = 0,
    any_resources: bool = False,
    allow_gold: bool = True,
) -> bool:
    """Whether ``pay`` exactly settles ``cost`` less ``discount`` resources of the payer's choice.

    Gold pays for any one resource. With ``any_resources`` (Scholar) only the count must match.
    """
    need = max(0, cost_size(cost) - discount)
    if sum(pay.values()) != need:
        return False
    if not allow_gold and pay.get("gold", 0):
        return False
    if any_resources:
        return True
    return all(pay.get(r, 0) <= cost.get(r, 0) for r in data.RESOURCES)


def check_pay(
    p: St,
    pay: Any,
    cost: Mapping[str, int],
    discount: int = 0,
    any_resources: bool = False,
    allow_gold: bool = True,
) -> dict[str, int]:
    if not isinstance(pay, Mapping):
        raise IllegalMoveError("malformed_move", "pay is required")
    if not pay_settles(pay, cost, discount, any_resources, allow_gold):
        raise IllegalMoveError("bad_payment", "the payment does not settle the cost exactly")
    for key, n in pay.items():
        if count_of(p, key) < n:
            raise IllegalMoveError("cannot_afford", f"not enough {key}")
    return dict(pay)


def pays_for(
    p: St,
    cost: Mapping[str, int],
    discount: int = 0,
    any_resources: bool = False,
    allow_gold: bool = True,
) -> list[dict[str, int]]:
    """Every distinct exact payment the player can make, in a fixed order."""
    need = sum(cost.values()) - discount
    if need < 0:
        need = 0
    res = p["res"]
    gold_have: int = p["goods"]["gold"] if allow_gold else 0
    out: list[dict[str, int]] = []
    if any_resources:
        caps = [min(need, res[r]) for r in data.RESOURCES]
    else:
        caps = [min(cost.get(r, 0), res[r]) for r in data.RESOURCES]
    if sum(caps) + gold_have < need:
        return out
    if need == 0:
        return [{}]
    c0, c1, c2, c3 = caps
    r0, r1, r2, r3 = data.RESOURCES
    for a in range(c0 + 1):
        for b in range(c1 + 1):
            ab = a + b
            if ab > need:
                break
            for c in range(c2 + 1):
                abc = ab + c
                if abc > need:
                    break
                for d in range(c3 + 1):
                    s = abc + d
                    if s > need:
                        break
                    gold = need - s
                    if gold > gold_have:
                        continue
                    pay: dict[str, int] = {}
                    if a:
                        pay[r0] = a
                    if b:
                        pay[r1] = b
                    if c:
                        pay[r2] = c
                    if d:
                        pay[r3] = d
                    if gold:
                        pay["gold"] = gold
                    out.append(pay)
    return out


def can_pay(
    p: St,
    cost: Mapping[str, int],
    discount: int = 0,
    any_resources: bool = False,
    allow_gold: bool = True,
) -> bool:
    need = max(0, cost_size(cost) - discount)
    gold_have = count_of(p, "gold") if allow_gold else 0
    if any_resources:
        have = sum(count_of(p, r) for r in data.RESOURCES)
    else:
        have = sum(min(cost.get(r, 0), count_of(p, r)) for r in data.RESOURCES)
    return have + gold_have >= need


def seats_from(st: St, first: int) -> Iterator[int]:
    n: int = st["players"]
    for i in range(n):
        yield (first + i) % n
