"""Bonus actions (titles, craftsmen, advisors) and advisor abilities.

Where a player may hire: a craftsman at a countryside location where one of their councilors
stands, an advisor at a town location where one of their councilors stands (the Steward: any
location). In the standard game this is exactly "the location of your countryside councilor" and
"the town location of your town councilor". In the random-locations variant a rondel mixes both
kinds of location, so the rule reads: the councilor standing on a countryside location counts as
the countryside councilor, the one standing on a town location as the town councilor (both, one
or neither may apply in a given turn).
"""

from __future__ import annotations

from typing import Any

from . import data
from .moves import IllegalMoveError, Move
from .state import (
    Ev,
    St,
    can_pay,
    check_pay,
    gain_bp,
    gain_cp,
    gain_items,
    lose_cp,
    pays_for,
    player,
    spend_items,
)

# ---------------------------------------------------------------------------------------------
# Titles.


def next_title(p: St) -> str | None:
    n = len(p["titles"])
    return data.TITLES[n] if n < len(data.TITLES) else None


def can_raise_title(st: St, seat: int) -> bool:
    p = player(st, seat)
    title = next_title(p)
    if title is None or not st["nobility"][title]:
        return False
    cost = data.TITLE_COST[title]
    return bool(p["goods"]["gold"] >= cost["gold"] and p["goods"]["ring"] >= cost["ring"])


def raise_title(st: St, seat: int, events: Ev) -> None:
    p = player(st, seat)
    title = next_title(p)
    if title is None:
        raise IllegalMoveError("no_title_left", "you already hold every title")
    if not st["nobility"][title]:
        raise IllegalMoveError("stack_empty", f"no {title} card is left")
    spend_items(st, seat, data.TITLE_COST[title], "raise_title", events)
    cp: int = st["nobility"][title].pop(0)
    p["titles"].append([title, cp])
    events.append({"type": "title_raised", "seat": seat, "title": title, "cp": cp})
    gain_cp(st, seat, cp, "title", events)
    bonus = st["event"] and data.EVENT_EFFECT[st["event"]].get("title_cp")
    if bonus:
        gain_cp(st, seat, int(bonus), "event", events)


# ---------------------------------------------------------------------------------------------
# Hiring.


def hire_places(st: St, seat: int, kind: str) -> list[str]:
    """Locations where ``seat`` may hire (``kind`` "craftsman" or "advisor")."""
    p = player(st, seat)
    pool: tuple[str, ...] = tuple(data.COUNTRYSIDE) if kind == "craftsman" else data.TOWN
    if "steward" in p["advisors"]:
        return list(pool)
    here = set(st["councilors"][seat].values())
    return [loc for loc in pool if loc in here]


def _craftsman_ok(
    st: St, seat: int, loc: str, hut: int, places: list[str] | None = None
) -> str | None:
    p = player(st, seat)
    if p["craftsmen_left"] <= 0:
        return "no_craftsman_left"
    if loc not in data.COUNTRYSIDE:
        return "bad_location"
    if loc not in (places if places is not None else hire_places(st, seat, "craftsman")):
        return "wrong_location"
    if not 0 <= hut < len(data.HUTS[loc]):
        return "bad_hut"
    if st["huts"][loc][hut] is not None:
        return "hut_taken"
    if sum(1 for c in p["craftsmen"] if c[0] == loc) >= data.MAX_OWN_CRAFTSMEN:
        return "craftsmen_limit"
    return None


def legal_hire_craftsman(st: St, seat: int, discount: int) -> list[tuple[str, int, dict[str, int]]]:
    p = player(st, seat)
    if p["craftsmen_left"] <= 0:
        return []
    scholar = "scholar" in p["advisors"]
    out: list[tuple[str, int, dict[str, int]]] = []
    places = hire_places(st, seat, "craftsman")
    for loc in places:
        for hut in range(len(data.HUTS[loc])):
            if _craftsman_ok(st, seat, loc, hut, places) is not None:
                continue
            for pay in pays_for(p, data.HUTS[loc][hut], discount, scholar):
                out.append((loc, hut, pay))
    return out


def hire_craftsman(st: St, seat: int, args: Any, discount: int, why: str, events: Ev) -> None:
    loc, hut = args.get("location"), args.get("hut")
    if not isinstance(loc, str) or not isinstance(hut, int) or "pay" not in args:
        raise IllegalMoveError("malformed_move", "hiring a craftsman needs location, hut, pay")
    problem = _craftsman_ok(st, seat, loc, hut)
    if problem is not None:
        raise IllegalMoveError(problem, f"cannot hire a craftsman at {loc} hut {hut}")
    p = player(st, seat)
    pay = check_pay(p, args["pay"], data.HUTS[loc][hut], discount, "scholar" in p["advisors"])
    spend_items(st, seat, pay, why, events)
    index = len(data.CRAFTSMAN_CP) - p["craftsmen_left"]
    p["craftsmen_left"] -= 1
    p["craftsmen"].append([loc, hut])
    st["huts"][loc][hut] = seat
    cp = data.CRAFTSMAN_CP[index]
    events.append({"type": "craftsman_hired", "seat": seat, "location": loc, "hut": hut, "cp": cp})
    gain_cp(st, seat, cp, "craftsman", events)


def advisor_discount(st: St) -> int:
    extra = st["event"] and data.EVENT_EFFECT[st["event"]].get("advisor_discount")
    return int(extra) if extra else 0


def legal_hire_advisor(st: St, seat: int, discount: int) -> list[tuple[str, dict[str, int]]]:
    p = player(st, seat)
    scholar = "scholar" in p["advisors"]
    discount += advisor_discount(st)
    out: list[tuple[str, dict[str, int]]] = []
    for loc in hire_places(st, seat, "advisor"):
        for adv in st["display"][loc]:
            for pay in pays_for(p, data.ADVISOR_COST[adv], discount, scholar):
                out.append((adv, pay))
    return out


def hire_advisor(st: St, seat: int, args: Any, discount: int, why: str, events: Ev) -> None:
    adv = args.get("advisor")
    if not isinstance(adv, str) or "pay" not in args:
        raise IllegalMoveError("malformed_move", "hiring an advisor needs advisor and pay")
    where = None
    for loc in hire_places(st, seat, "advisor"):
        if adv in st["display"][loc]:
            where = loc
    if where is None:
        if any(adv in st["display"][loc] for loc in data.TOWN):
            raise IllegalMoveError("wrong_location", f"{adv} is not where you may hire")
        raise IllegalMoveError("advisor_not_available", f"{adv} is not on display")
    p = player(st, seat)
    discount += advisor_discount(st)
    pay = check_pay(p, args["pay"], data.ADVISOR_COST[adv], discount, "scholar" in p["advisors"])
    spend_items(st, seat, pay, why, events)
    display: list[str] = st["display"][where]
    pos = display.index(adv)
    p["advisors"].append(adv)
    events.append({"type": "advisor_hired", "seat": seat, "advisor": adv, "location": where})
    if st["b_stack"]:
        new = st["b_stack"].pop(0)
        display[pos] = new
        events.append({"type": "advisor_revealed", "location": where, "advisor": new})
    else:
        display.pop(pos)
    gain_cp(st, seat, data.ADVISOR_CP[adv], "advisor", events)
    if data.ADVISOR_BP[adv]:
        gain_bp(st, seat, data.ADVISOR_BP[adv], "advisor", events)
    immediate = data.EFFECTS["advisor_immediate"].get(adv)
    if immediate:
        for key, n in immediate.items():
            if key == "bp":
                gain_bp(st, seat, n, adv, events)
            else:
                gain_items(st, seat, {key: n}, adv, events)


# ---------------------------------------------------------------------------------------------
# Advisor abilities.


def legal_use_advisor(st: St, seat: int) -> list[dict[str, Any]]:
    p = player(st, seat)
    used: list[str] = st["turn"]["advisors_used"]
    fx = data.EFFECTS
    out: list[dict[str, Any]] = []
    for adv in p["advisors"]:
        if adv in used:
            continue
        if adv == "baker":
            for bread in sorted(fx["baker"], key=int):
                for pay in pays_for(p, fx["baker"][bread]):
                    out.append(
                        {"kind": "use_advisor", "advisor": adv, "bread": int(bread), "pay": pay}
                    )
        elif adv == "schoolmarm":
            cost = {"n": fx["schoolmarm"]["resources"]}
            for pay in pays_for(p, cost, any_resources=True):
                out.append({"kind": "use_advisor", "advisor": adv, "pay": pay})
        elif adv == "bailiff":
            if p["goods"]["ring"] >= fx["bailiff"]["ring"]:
                out.append({"kind": "use_advisor", "advisor": adv})
        elif adv == "dressmaker":
            for pay in pays_for(p, {"cloth": fx["dressmaker"]["cloth"]}):
                out.append({"kind": "use_advisor", "advisor": adv, "pay": pay})
        elif adv == "landlord":
            if p["cp"] >= fx["landlord"]["cp"]:
                for pay in pays_for(p, {"cloth": fx["landlord"]["cloth"]}):
                    out.append({"kind": "use_advisor", "advisor": adv, "pay": pay})
        elif adv == "merchant":
            cost = {"n": fx["merchant"]["resources"]}
            for pay in pays_for(p, cost, any_resources=True):
                for take in data.RESOURCES:
                    if pay.get(take):
                        continue
                    out.append({"kind": "use_advisor", "advisor": adv, "pay": pay, "take": take})
        elif adv == "chamberlain":
            for give in ("ring", "gold"):
                if p["goods"][give] >= fx["chamberlain"][give]:
                    out.append({"kind": "use_advisor", "advisor": adv, "give": give})
    return out


def use_advisor(st: St, seat: int, move: Move, events: Ev) -> None:
    p = player(st, seat)
    adv = move.args["advisor"]
    args = move.args
    fx = data.EFFECTS
    if adv not in p["advisors"]:
        raise IllegalMoveError("advisor_not_owned", f"you have no {adv}")
    if adv not in data.PER_TURN_ADVISORS and adv != "chamberlain":
        raise IllegalMoveError("no_ability", f"{adv} has no ability to use")
    if adv in st["turn"]["advisors_used"]:
        raise IllegalMoveError("advisor_used", f"{adv} was already used this turn")
    if adv != "chamberlain":
        st["turn"]["advisors_used"].append(adv)
    allowed = {
        "baker": {"bread", "pay"},
        "schoolmarm": {"pay"},
        "bailiff": set(),
        "dressmaker": {"pay"},
        "landlord": {"pay"},
        "merchant": {"pay", "take"},
        "chamberlain": {"give"},
    }[adv]
    if set(args) - {"advisor"} != allowed:
        raise IllegalMoveError("malformed_move", f"{adv} needs {sorted(allowed)}")
    if adv == "baker":
        bread = str(args["bread"])
        if bread not in fx["baker"]:
            raise IllegalMoveError("bad_count", "the baker bakes 1 or 2 bread")
        pay = check_pay(p, args["pay"], fx["baker"][bread])
        spend_items(st, seat, pay, adv, events)
        gain_items(st, seat, {"bread": int(bread)}, adv, events)
    elif adv == "schoolmarm":
        pay = check_pay(p, args["pay"], {"n": fx["schoolmarm"]["resources"]}, any_resources=True)
        spend_items(st, seat, pay, adv, events)
        gain_items(st, seat, {"book": fx["schoolmarm"]["book"]}, adv, events)
    elif adv == "bailiff":
        spend_items(st, seat, {"ring": fx["bailiff"]["ring"]}, adv, events)
        gain_bp(st, seat, fx["bailiff"]["bp"], adv, events)
    elif adv == "dressmaker":
        pay = check_pay(p, args["pay"], {"cloth": fx["dressmaker"]["cloth"]})
        spend_items(st, seat, pay, adv, events)
        gain_cp(st, seat, fx["dressmaker"]["cp"], adv, events)
    elif adv == "landlord":
        if p["cp"] < fx["landlord"]["cp"]:
            raise IllegalMoveError("cannot_afford", "the landlord needs 1 CP")
        pay = check_pay(p, args["pay"], {"cloth": fx["landlord"]["cloth"]})
        spend_items(st, seat, pay, adv, events)
        lose_cp(st, seat, fx["landlord"]["cp"], adv, events)
        gain_bp(st, seat, fx["landlord"]["bp"], adv, events)
    elif adv == "merchant":
        take = args["take"]
        if take not in data.RESOURCES:
            raise IllegalMoveError("bad_resource", f"unknown resource {take!r}")
        pay = check_pay(p, args["pay"], {"n": fx["merchant"]["resources"]}, any_resources=True)
        if pay.get(take):
            raise IllegalMoveError("bad_resource", "take a resource of another type")
        spend_items(st, seat, pay, adv, events)
        gain_items(st, seat, {take: 1}, adv, events)
    elif adv == "chamberlain":
        give = args["give"]
        if give not in ("ring", "gold"):
            raise IllegalMoveError("malformed_move", "give 'ring' or 'gold'")
        other = "gold" if give == "ring" else "ring"
        spend_items(st, seat, {give: fx["chamberlain"][give]}, adv, events)
        gain_items(st, seat, {other: fx["chamberlain"][other]}, adv, events)
    events.append({"type": "advisor_used", "seat": seat, "advisor": adv})


def affordable_cost(st: St, seat: int, cost: dict[str, int]) -> bool:
    return can_pay(player(st, seat), cost)
