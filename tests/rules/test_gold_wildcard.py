"""Gold pays for any one resource, in every payment of resources (audit against the rulebook).

Rulebook (cs), Market: "Kdykoli máte uhradit 1 surovinu, smíte místo toho vždy zaplatit 1 zlatou
mincí." — "Whenever you have to pay 1 resource, you may always pay 1 gold coin instead."
Rules contract §3: "Gold is a wildcard: wherever a rule says pay N resources, any of them may be
paid with gold instead (one gold per resource). Bread, books and rings are never replaced by gold."

Each test gives a player gold and none of the resource a payment asks for, then checks that the
payment with gold is offered by ``legal_moves`` and accepted by ``apply_move``.
"""

from __future__ import annotations

from typing import Any

from app.rules import GameState, data

from .helpers import (
    advisors,
    clear,
    edit,
    expect_illegal,
    give,
    hand,
    legal,
    play,
    player,
    set_event,
    start,
    visit,
)
from .test_locations import with_craftsmen


def offered(state: GameState, seat: int, move: dict[str, Any]) -> GameState:
    """``move`` is among the legal moves and applies; the state after it."""
    assert move in legal(state, seat), move
    return play(state, seat, move)


# --- the harvest's bread ------------------------------------------------------------------------


def test_gold_pays_the_grain_for_bread_at_a_harvest() -> None:
    """Rulebook (cs), Countryside: "Za každého svého řemeslníka v dané lokalitě si navíc můžete
    zvolit, zda si vezmete 1 další surovinu stejného typu, NEBO zaplatíte 1 obilí a vezmete si
    1 chléb." — "For each of your craftsmen there you may also choose to take 1 more resource
    of that type, OR pay 1 grain and take 1 bread." The grain is a resource, so gold may pay it.
    """
    s = with_craftsmen(clear(start(2), 0), 0, "quarry", 2)
    s = visit(give(s, 0, gold=2), "quarry")
    harvests = [m for m in legal(s, 0) if m["kind"] == "harvest"]
    assert harvests == [
        {"kind": "harvest", "extra": ["resource", "resource"]},
        {"kind": "harvest", "extra": ["resource", "bread"], "pay": {"gold": 1}},
        {"kind": "harvest", "extra": ["bread", "bread"], "pay": {"gold": 2}},
    ]
    after = offered(s, 0, harvests[2])
    p = player(after, 0)
    assert p["goods"]["bread"] == 2 and p["goods"]["gold"] == 0 and p["res"]["stone"] == 1


def test_harvest_mixes_grain_and_gold_and_grain_alone_needs_no_pay() -> None:
    s = with_craftsmen(clear(start(2), 0), 0, "forest", 2)
    s = visit(give(s, 0, gold=1, grain=1), "forest")
    breads = [m for m in legal(s, 0) if m["kind"] == "harvest" and "bread" in m["extra"]]
    assert {"kind": "harvest", "extra": ["resource", "bread"]} in breads  # 1 grain
    assert {"kind": "harvest", "extra": ["resource", "bread"], "pay": {"gold": 1}} in breads
    both = {"kind": "harvest", "extra": ["bread", "bread"], "pay": {"grain": 1, "gold": 1}}
    assert both in breads
    assert {"kind": "harvest", "extra": ["bread", "bread"]} not in breads  # 2 grain: only 1
    expect_illegal(s, 0, {"kind": "harvest", "extra": ["bread", "bread"]}, "cannot_afford")
    expect_illegal(
        s, 0, {"kind": "harvest", "extra": ["bread", "bread"], "pay": {"gold": 2}}, "cannot_afford"
    )
    expect_illegal(
        s, 0, {"kind": "harvest", "extra": ["bread", "bread"], "pay": {"gold": 1}}, "bad_payment"
    )
    expect_illegal(
        s, 0, {"kind": "harvest", "extra": ["resource", "bread"], "pay": {"wood": 1}}, "bad_payment"
    )
    expect_illegal(
        s,
        0,
        {"kind": "harvest", "extra": ["resource", "resource"], "pay": {"gold": 1}},
        "bad_payment",
    )
    p = player(offered(s, 0, both), 0)
    assert p["goods"]["bread"] == 2 and p["goods"]["gold"] == 0 and p["res"]["grain"] == 0


def test_grain_harvested_at_the_grain_field_still_pays_first() -> None:
    s = with_craftsmen(clear(start(2), 0), 0, "grain_field", 1)
    s = visit(give(s, 0, gold=1), "grain_field")
    harvests = [m for m in legal(s, 0) if m["kind"] == "harvest"]
    assert {"kind": "harvest", "extra": ["bread"]} in harvests
    assert {"kind": "harvest", "extra": ["bread"], "pay": {"gold": 1}} in harvests


# --- every other payment of resources ---------------------------------------------------------


def test_hire_craftsman_with_gold() -> None:
    s = visit(give(clear(start(2), 0), 0, gold=2), "forest")
    offered(s, 0, {"kind": "hire_craftsman", "location": "forest", "hut": 0, "pay": {"gold": 2}})


def test_hire_advisor_and_the_discount_card_with_gold() -> None:
    def town(t: dict[str, Any]) -> None:
        t["councilors"][0]["town"] = "castle"
        t["display"]["castle"] = ["baker"] + [a for a in t["display"]["castle"] if a != "baker"]
        for loc in ("cathedral", "construction_site", "market"):
            t["display"][loc] = [a for a in t["display"][loc] if a != "baker"]

    s = set_event(give(clear(edit(start(2), town), 0), 0, gold=2), None)
    s = hand(s, 0, ["hire_discount", "take_wood", "take_stone"])
    s = play(s, 0, {"kind": "play_card", "card": "hire_discount", "slot": 1})
    cost = data.ADVISOR_COST["baker"]
    offered(s, 0, {"kind": "hire_advisor", "advisor": "baker", "pay": {"gold": sum(cost.values())}})
    card = {
        "kind": "card_action",
        "hire": "advisor",
        "advisor": "baker",
        "pay": {"gold": sum(cost.values()) - data.EFFECTS["hire_discount"]},
    }
    offered(s, 0, card)


def test_castle_gift_and_cathedral_donation_with_gold() -> None:
    s = visit(give(clear(start(2), 0), 0, gold=5), "castle")
    gifts = [m for m in legal(s, 0) if m["kind"] == "castle_gift"]
    assert gifts and all(m["pay"] == {"gold": sum(m["pay"].values())} for m in gifts)
    assert player(offered(s, 0, gifts[0]), 0)["goods"]["ring"] == 1
    s = visit(give(clear(start(2), 0), 0, gold=5), "cathedral")
    donations = [m for m in legal(s, 0) if m["kind"] == "cathedral_donation"]
    assert donations and all(set(m["pay"]) == {"gold"} for m in donations)
    offered(s, 0, donations[0])


def test_deliver_stone_and_wood_with_gold() -> None:
    s = visit(give(clear(start(2), 0), 0, gold=4), "construction_site")
    s = offered(s, 0, {"kind": "deliver_stone", "pay": {"gold": 1}})
    s = offered(s, 0, {"kind": "deliver_wood", "count": 3, "pay": {"gold": 3}})
    assert player(s, 0)["goods"]["gold"] == 0


def _own_turn(state: GameState) -> GameState:
    s = set_event(hand(state, 0, ["take_ring", "take_wood", "take_stone"]), None)
    return play(s, 0, {"kind": "play_card", "card": "take_ring", "slot": 1})


def test_advisor_abilities_paying_resources_take_gold() -> None:
    names = ["baker", "schoolmarm", "dressmaker", "landlord", "merchant"]
    s = _own_turn(give(advisors(clear(start(2), 0), 0, names), 0, gold=9, cp=3))
    s = offered(s, 0, {"kind": "use_advisor", "advisor": "baker", "bread": 2, "pay": {"gold": 3}})
    s = offered(s, 0, {"kind": "use_advisor", "advisor": "schoolmarm", "pay": {"gold": 2}})
    s = offered(s, 0, {"kind": "use_advisor", "advisor": "dressmaker", "pay": {"gold": 1}})
    s = offered(s, 0, {"kind": "use_advisor", "advisor": "landlord", "pay": {"gold": 1}})
    s = offered(
        s, 0, {"kind": "use_advisor", "advisor": "merchant", "pay": {"gold": 1}, "take": "wood"}
    )
    p = player(s, 0)
    assert p["goods"]["gold"] == 1 and p["goods"]["bread"] == 2 and p["res"]["wood"] == 1


def test_the_great_famine_takes_gold_for_grain() -> None:
    """Rulebook (cs), The great famine: "Můžete zaplatit 1 obilí a získat 3 občanské body nebo
    zaplatit 2 obilí …" — "You may pay 1 grain for 3 CP or pay 2 grain … for 5 CP"."""

    def famine(t: dict[str, Any]) -> None:
        t["phase"] = "end_of_round"
        t["turn"] = None
        t["event"] = "the_great_famine"
        t["decision"] = {"kind": "event_option", "seat": 0, "queue": [], "event": t["event"]}

    s = edit(give(clear(start(2), 0), 0, gold=2), famine)
    options = [m for m in legal(s, 0) if m["kind"] == "event_option"]
    assert {"kind": "event_option", "option": "grain_1", "pay": {"gold": 1}} in options
    assert {"kind": "event_option", "option": "grain_2", "pay": {"gold": 2}} in options
    offered(s, 0, {"kind": "event_option", "option": "grain_2", "pay": {"gold": 2}})


def test_gold_never_pays_for_gold_bread_books_or_rings() -> None:
    """The market's and the gold card's resources-for-gold, bread, books, rings: no gold."""
    s = visit(give(clear(start(2), 0), 0, gold=5), "market")
    assert not [m for m in legal(s, 0) if m["kind"] == "market_gold"]
    expect_illegal(s, 0, {"kind": "market_gold", "pay": {"gold": 1}}, "bad_payment")
    s = visit(give(clear(start(2), 0), 0, gold=5), "construction_site")
    assert not [m for m in legal(s, 0) if m["kind"] == "deliver_bread"]
    expect_illegal(s, 0, {"kind": "deliver_bread", "count": 1}, "cannot_afford")
