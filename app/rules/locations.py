"""Countryside and town location actions during a visit, markers and favor tokens.

Gold stands in for any resource in a payment, except where the action itself turns resources
into gold (``market_gold`` here, the ``gold`` action card): paying gold for gold changes
nothing, so those payments list and accept resources only.
"""

from __future__ import annotations

from typing import Any

from . import data
from .moves import IllegalMoveError, Move
from .state import (
    Ev,
    St,
    check_pay,
    count_of,
    gain_bp,
    gain_cp,
    gain_items,
    pays_for,
    player,
    shuffle,
    spend_items,
)

# ---------------------------------------------------------------------------------------------
# Markers: a list of remaining values; the head is the current value; empty = board value.


def marker_seq(st: St, marker: str, resource: str | None = None) -> list[int]:
    m = st["markers"][marker]
    seq: list[int] = m[resource] if resource is not None else m
    return seq


def marker_value(st: St, marker: str, resource: str | None = None) -> int:
    seq = marker_seq(st, marker, resource)
    if seq:
        return seq[0]
    board: int = data.MARKERS[marker]["board"]
    return board


def advance_marker(st: St, marker: str, resource: str | None, events: Ev) -> None:
    seq = marker_seq(st, marker, resource)
    if seq:
        seq.pop(0)
    events.append(
        {
            "type": "marker_advanced",
            "marker": marker,
            "resource": resource,
            "value": marker_value(st, marker, resource),
            "removed": not seq,
        }
    )


# ---------------------------------------------------------------------------------------------
# Favor tokens.


def draw_favor(st: St, seat: int, events: Ev) -> list[int]:
    """Draw up to the favor draw count, reshuffling the discards when the pile runs out."""
    fav = st["favor"]
    drawn: list[int] = []
    for _ in range(data.EFFECTS["favor_draw"]):
        if not fav["pile"]:
            if not fav["discard"]:
                break
            fav["pile"] = shuffle(st, fav["discard"])
            fav["discard"] = []
            events.append({"type": "favor_pile_reshuffled", "pile": len(fav["pile"])})
        drawn.append(fav["pile"].pop(0))
    events.append(
        {
            "type": "favor_drawn",
            "seat": seat,
            "count": len(drawn),
            "tokens": [token_view(t) for t in drawn],
            "private": seat,
        }
    )
    return drawn


def token_view(token: int) -> dict[str, Any]:
    t = data.FAVOR_TOKENS[token]
    return {"id": token, "location": t["location"], "reward": dict(t["reward"])}


def cash_favor(st: St, seat: int, token: int, events: Ev) -> None:
    p = player(st, seat)
    p["favor"].remove(token)
    st["favor"]["discard"].append(token)
    reward = data.FAVOR_TOKENS[token]["reward"]
    events.append({"type": "favor_cashed", "seat": seat, "token": token_view(token)})
    for key, n in reward.items():
        if key == "cp":
            gain_cp(st, seat, n, "favor", events)
        elif key == "bp":
            gain_bp(st, seat, n, "favor", events)
        else:
            gain_items(st, seat, {key: n}, "favor", events)


# ---------------------------------------------------------------------------------------------
# Visits.


def own_craftsmen_at(p: St, location: str) -> int:
    return sum(1 for loc, _hut in p["craftsmen"] if loc == location)


def _visit(st: St) -> St:
    v: St = st["turn"]["visit"]
    return v


def legal_visit_moves(st: St, seat: int) -> list[dict[str, Any]]:
    visit = st["turn"]["visit"]
    out: list[dict[str, Any]] = []
    if visit is None:
        return out
    p = player(st, seat)
    loc: str = visit["location"]
    done: list[str] = visit["done"]
    if loc in data.COUNTRYSIDE:
        if "harvest" not in done:
            out.extend(_legal_harvests(p, loc))
    elif loc == "castle":
        if "castle_gift" not in done:
            for r in data.RESOURCES:
                v = marker_value(st, "gift", r)
                for pay in pays_for(p, {r: v}):
                    out.append({"kind": "castle_gift", "resource": r, "pay": pay})
        if "castle_book" not in done and p["goods"]["book"] >= 1:
            out.append({"kind": "castle_book"})
    elif loc == "cathedral":
        if "cathedral_donation" not in done:
            for r in data.RESOURCES:
                v = marker_value(st, "donation", r)
                for pay in pays_for(p, {r: v}):
                    out.append({"kind": "cathedral_donation", "resource": r, "pay": pay})
    elif loc == "construction_site":
        if "deliver_stone" not in done:
            for pay in pays_for(p, {"stone": 1}):
                out.append({"kind": "deliver_stone", "pay": pay})
        if "deliver_bread" not in done:
            for c in range(1, min(data.EFFECTS["deliver_bread_max"], p["goods"]["bread"]) + 1):
                out.append({"kind": "deliver_bread", "count": c})
        if "deliver_wood" not in done:
            for c in sorted(data.WOOD_BP):
                for pay in pays_for(p, {"wood": c}):
                    out.append({"kind": "deliver_wood", "count": c, "pay": pay})
    elif loc == "market":
        if "market_gold" not in done:
            for n in _market_counts(st):
                for pay in pays_for(p, {"n": n}, any_resources=True, allow_gold=False):
                    out.append({"kind": "market_gold", "pay": pay})
        if "market_books" not in done:
            for c in range(1, min(max(data.MARKET_BOOKS_CP), p["goods"]["book"]) + 1):
                out.append({"kind": "market_books", "count": c})
    if loc in data.TOWN:
        fresh = visit["fresh"]
        for token in sorted(p["favor"]):
            if data.FAVOR_TOKENS[token]["location"] == loc and token not in fresh:
                out.append({"kind": "cash_favor", "token": token})
    out.append({"kind": "end_visit"})
    return out


def _legal_harvests(p: St, loc: str) -> list[dict[str, Any]]:
    """Every harvest: per own craftsman 1 more resource or 1 bread for 1 grain (or 1 gold).

    The bread's grain is paid after the harvest, so grain harvested here may pay for it. A
    harvest paying grain only is listed without ``pay`` (the default); one using gold names it.
    """
    res = data.COUNTRYSIDE[loc]
    n = own_craftsmen_at(p, loc)
    out: list[dict[str, Any]] = []
    for bread in range(n + 1):
        extra = ["resource"] * (n - bread) + ["bread"] * bread
        if bread == 0:
            out.append({"kind": "harvest", "extra": extra})
            continue
        after = {"res": dict(p["res"]), "goods": p["goods"]}
        after["res"][res] += 1 + n - bread
        default = {"grain": bread}
        pays = pays_for(after, default)
        if default in pays:
            out.append({"kind": "harvest", "extra": extra})
        for pay in pays:
            if pay != default:
                out.append({"kind": "harvest", "extra": extra, "pay": pay})
    return out


def _market_counts(st: St) -> list[int]:
    base: int = data.EFFECTS["market_gold"]["resources"]
    extra = st["event"] and data.EVENT_EFFECT[st["event"]].get("market_extra")
    if extra:
        return [base, base + int(extra)]
    return [base]


def apply_visit_move(st: St, seat: int, move: Move, events: Ev) -> None:
    turn = st["turn"]
    visit = turn["visit"]
    if visit is None:
        raise IllegalMoveError("no_visit", "no location visit is open")
    kind = move.kind
    loc: str = visit["location"]
    p = player(st, seat)
    if kind == "end_visit":
        close_visit(st, seat, events)
        return
    if kind == "cash_favor":
        if loc not in data.TOWN:
            raise IllegalMoveError("wrong_location", "favor tokens are cashed at town locations")
        token = move.args["token"]
        if token not in p["favor"]:
            raise IllegalMoveError("token_not_owned", "you do not hold that favor token")
        if data.FAVOR_TOKENS[token]["location"] != loc:
            raise IllegalMoveError("wrong_location", "that token is for another location")
        if token in visit["fresh"]:
            raise IllegalMoveError("token_fresh", "a token drawn in this visit cannot be cashed")
        cash_favor(st, seat, token, events)
        return
    where = _KIND_LOCATION[kind]
    if where != loc and not (where == "countryside" and loc in data.COUNTRYSIDE):
        raise IllegalMoveError("wrong_location", f"{kind} is not possible at {loc}")
    if kind in visit["done"]:
        raise IllegalMoveError("action_used", f"{kind} was already taken in this visit")
    visit["done"].append(kind)
    if kind == "harvest":
        _harvest(st, seat, loc, move, events)
    elif kind == "castle_gift":
        _castle_gift(st, seat, move, events)
    elif kind == "castle_book":
        spend_items(st, seat, {"book": 1}, "castle_book", events)
        gain_bp(st, seat, data.CASTLE_BOOK_BP, "castle_book", events)
    elif kind == "cathedral_donation":
        _donation(st, seat, move, events)
    elif kind == "deliver_stone":
        pay = check_pay(p, move.args["pay"], {"stone": 1})
        spend_items(st, seat, pay, "deliver_stone", events)
        gain_bp(st, seat, data.STONE_BP, "deliver_stone", events)
        gain_cp(st, seat, marker_value(st, "stone"), "deliver_stone", events)
        advance_marker(st, "stone", None, events)
    elif kind == "deliver_bread":
        count = move.args["count"]
        if not 1 <= count <= data.EFFECTS["deliver_bread_max"]:
            raise IllegalMoveError("bad_count", "deliver 1 to 3 bread")
        spend_items(st, seat, {"bread": count}, "deliver_bread", events)
        gain_cp(st, seat, count * marker_value(st, "bread"), "deliver_bread", events)
        advance_marker(st, "bread", None, events)
    elif kind == "deliver_wood":
        count = move.args["count"]
        if count not in data.WOOD_BP:
            raise IllegalMoveError("bad_count", "deliver 1 or 3 wood")
        pay = check_pay(p, move.args["pay"], {"wood": count})
        spend_items(st, seat, pay, "deliver_wood", events)
        gain_bp(st, seat, data.WOOD_BP[count], "deliver_wood", events)
    elif kind == "market_gold":
        pay = move.args["pay"]
        n = sum(pay.values())
        if n not in _market_counts(st):
            raise IllegalMoveError("bad_payment", "pay the market's number of resources")
        pay = check_pay(p, pay, {"n": n}, any_resources=True, allow_gold=False)
        spend_items(st, seat, pay, "market_gold", events)
        per: int = data.EFFECTS["market_gold"]["gold"]
        gain_items(st, seat, {"gold": n * per}, "market_gold", events)
    elif kind == "market_books":
        count = move.args["count"]
        if count not in data.MARKET_BOOKS_CP:
            raise IllegalMoveError("bad_count", "discard 1 to 5 books")
        spend_items(st, seat, {"book": count}, "market_books", events)
        gain_cp(st, seat, data.MARKET_BOOKS_CP[count], "market_books", events)


_KIND_LOCATION: dict[str, str] = {
    "harvest": "countryside",
    "castle_gift": "castle",
    "castle_book": "castle",
    "cathedral_donation": "cathedral",
    "deliver_stone": "construction_site",
    "deliver_bread": "construction_site",
    "deliver_wood": "construction_site",
    "market_gold": "market",
    "market_books": "market",
}


def _harvest(st: St, seat: int, loc: str, move: Move, events: Ev) -> None:
    p = player(st, seat)
    extra: list[str] = move.args["extra"]
    n = own_craftsmen_at(p, loc)
    if len(extra) != n or any(e not in ("resource", "bread") for e in extra):
        raise IllegalMoveError(
            "bad_harvest", "extra needs one 'resource' or 'bread' per own craftsman here"
        )
    res = data.COUNTRYSIDE[loc]
    n_res = 1 + extra.count("resource")
    n_bread = extra.count("bread")
    gain_items(st, seat, {res: n_res}, "harvest", events)
    # each bread costs 1 grain, or 1 gold in its place (rules §3: gold is a wildcard)
    if "pay" in move.args:
        pay = check_pay(p, move.args["pay"], {"grain": n_bread})
    else:
        pay = {"grain": n_bread}
    if n_bread:
        spend_items(st, seat, pay, "harvest", events)
        gain_items(st, seat, {"bread": n_bread}, "harvest", events)
    events.append(
        {"type": "harvested", "seat": seat, "location": loc, "resource": n_res, "bread": n_bread}
    )


def _pay_marker(st: St, seat: int, move: Move, marker: str, why: str, events: Ev) -> None:
    """Pay as many of the chosen resource as its gift or donation marker shows; advance it."""
    r = move.args["resource"]
    if r not in data.RESOURCES:
        raise IllegalMoveError("bad_resource", f"unknown resource {r!r}")
    pay = check_pay(player(st, seat), move.args["pay"], {r: marker_value(st, marker, r)})
    spend_items(st, seat, pay, why, events)
    advance_marker(st, marker, r, events)


def _castle_gift(st: St, seat: int, move: Move, events: Ev) -> None:
    p = player(st, seat)
    _pay_marker(st, seat, move, "gift", "castle_gift", events)
    gain_items(st, seat, {"ring": data.EFFECTS["castle_gift_ring"]}, "castle_gift", events)
    if "mayoress" in p["advisors"]:
        gain_cp(st, seat, data.EFFECTS["mayoress_gift_cp"], "mayoress", events)
    bonus = st["event"] and data.EVENT_EFFECT[st["event"]].get("gift_cp")
    if bonus:
        gain_cp(st, seat, int(bonus), "event", events)


def _donation(st: St, seat: int, move: Move, events: Ev) -> None:
    p = player(st, seat)
    _pay_marker(st, seat, move, "donation", "cathedral_donation", events)
    books: int = data.EFFECTS["donation_book"]
    if "abbess" in p["advisors"]:
        books += data.EFFECTS["abbess_donation_book"]
    gain_items(st, seat, {"book": books}, "cathedral_donation", events)
    bonus = st["event"] and data.EVENT_EFFECT[st["event"]].get("donation_cp")
    if bonus:
        gain_cp(st, seat, int(bonus), "event", events)
    drawn = draw_favor(st, seat, events)
    if drawn:
        st["decision"] = {"kind": "keep_favor", "seat": seat, "tokens": drawn}


def keep_favor(st: St, seat: int, token: Any, events: Ev) -> None:
    dec = st["decision"]
    if token not in dec["tokens"]:
        raise IllegalMoveError("bad_token", "keep one of the drawn tokens")
    p = player(st, seat)
    p["favor"].append(token)
    p["favor"].sort()
    rest = [t for t in dec["tokens"] if t != token]
    st["favor"]["discard"].extend(rest)
    st["decision"] = None
    visit = st["turn"]["visit"]
    if visit is not None:
        visit["fresh"].append(token)
    events.append({"type": "favor_kept", "seat": seat, "token": token_view(token)})
    events.append({"type": "favor_discarded", "seat": seat, "count": len(rest)})


def open_visit(st: St, seat: int, location: str, via: str, events: Ev) -> None:
    st["turn"]["visit"] = {"location": location, "via": via, "done": [], "fresh": []}
    events.append({"type": "visit_opened", "seat": seat, "location": location, "via": via})


def close_visit(st: St, seat: int, events: Ev) -> None:
    visit = st["turn"]["visit"]
    if visit is None:
        return
    st["turn"]["visit"] = None
    events.append({"type": "visit_closed", "seat": seat, "location": visit["location"]})


def has_book(p: St) -> bool:
    return count_of(p, "book") > 0
