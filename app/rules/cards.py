"""The nine action cards: the card actions a played card offers, and moving a councilor."""

from __future__ import annotations

from typing import Any

from . import data
from .advisors import hire_advisor, hire_craftsman, legal_hire_advisor, legal_hire_craftsman
from .locations import open_visit
from .moves import IllegalMoveError, Move
from .state import Ev, St, check_pay, gain_items, pays_for, player, spend_items

TAKE_CARDS: dict[str, str] = {
    "take_wood": "wood",
    "take_stone": "stone",
    "take_cloth": "cloth",
    "take_grain": "grain",
    "take_ring": "ring",
}


def legal_card_actions(st: St, seat: int, card: str) -> list[dict[str, Any]]:
    p = player(st, seat)
    if card in TAKE_CARDS:
        return [{"kind": "card_action"}]
    out: list[dict[str, Any]] = []
    if card == "gold":
        for n in sorted(data.EFFECTS["gold_card"], key=int):
            for pay in pays_for(p, {"n": int(n)}, any_resources=True, allow_gold=False):
                out.append({"kind": "card_action", "pay": pay})
        return out
    if card == "move1":
        return [{"kind": "card_action", "councilor": key} for key in st["councilors"][seat]]
    if card == "town_action":
        return [{"kind": "card_action", "location": loc} for loc in data.TOWN]
    if card == "hire_discount":
        d: int = data.EFFECTS["hire_discount"]
        for loc, hut, pay in legal_hire_craftsman(st, seat, d):
            out.append(
                {
                    "kind": "card_action",
                    "hire": "craftsman",
                    "location": loc,
                    "hut": hut,
                    "pay": pay,
                }
            )
        for adv, pay in legal_hire_advisor(st, seat, d):
            out.append({"kind": "card_action", "hire": "advisor", "advisor": adv, "pay": pay})
        return out
    return []


def card_action(st: St, seat: int, card: str, mv: Move, events: Ev) -> None:
    args = mv.args
    allowed: dict[str, set[str]] = {
        "gold": {"pay"},
        "move1": {"councilor"},
        "town_action": {"location"},
    }
    if card == "hire_discount":
        hire = args.get("hire")
        want = (
            {"hire", "location", "hut", "pay"}
            if hire == "craftsman"
            else {"hire", "advisor", "pay"}
        )
        if hire not in ("craftsman", "advisor") or set(args) != want:
            raise IllegalMoveError("malformed_move", "hire_discount needs hire and its fields")
    elif set(args) != allowed.get(card, set()):
        raise IllegalMoveError("malformed_move", f"the {card} card action has other fields")
    events.append({"type": "card_action_taken", "seat": seat, "card": card})
    if card in TAKE_CARDS:
        gain_items(st, seat, {TAKE_CARDS[card]: 1}, card, events)
    elif card == "gold":
        pay = args["pay"]
        n = sum(pay.values())
        gold = data.EFFECTS["gold_card"].get(str(n))
        if gold is None:
            raise IllegalMoveError("bad_payment", "pay 1 or 3 resources")
        pay = check_pay(player(st, seat), pay, {"n": n}, any_resources=True, allow_gold=False)
        spend_items(st, seat, pay, card, events)
        gain_items(st, seat, {"gold": int(gold)}, card, events)
    elif card == "move1":
        move_councilor(st, seat, args["councilor"], 1, "move1", events)
    elif card == "town_action":
        loc = args["location"]
        if loc not in data.TOWN:
            raise IllegalMoveError("bad_location", "town_action names a town location")
        open_visit(st, seat, loc, "town_action", events)
    elif card == "hire_discount":
        d: int = data.EFFECTS["hire_discount"]
        if args["hire"] == "craftsman":
            hire_craftsman(st, seat, args, d, "hire_discount", events)
        else:
            hire_advisor(st, seat, args, d, "hire_discount", events)


def move_councilor(st: St, seat: int, key: Any, steps: int, via: str, events: Ev) -> None:
    councilors = st["councilors"][seat]
    if key not in councilors:
        raise IllegalMoveError("bad_councilor", f"councilor must be one of {sorted(councilors)}")
    rondel: list[str] = st["rondels"][key]
    here = councilors[key]
    there = rondel[(rondel.index(here) + steps) % len(rondel)]
    councilors[key] = there
    events.append(
        {
            "type": "councilor_moved",
            "seat": seat,
            "councilor": key,
            "from": here,
            "to": there,
            "steps": steps,
        }
    )
    open_visit(st, seat, there, via, events)
