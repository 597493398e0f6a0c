"""Bonus actions (titles, craftsmen, advisors) and all 22 advisors."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import data, encode_state, view_for

from .helpers import (
    advisors,
    clear,
    edit,
    expect_illegal,
    give,
    hand,
    kinds,
    legal,
    play,
    player,
    set_event,
    start,
)


def playing(state, card: str = "take_ring"):  # type: ignore[no-untyped-def]
    """Seat 0 has played ``card`` on slot 1 and moved (no visit open)."""
    s = set_event(hand(state, 0, [card, "take_wood", "take_stone"]), None)
    s = play(s, 0, {"kind": "play_card", "card": card, "slot": 1})
    s = play(s, 0, {"kind": "move", "councilor": "town"})
    return play(s, 0, {"kind": "end_visit"})


def place(state, seat: int, countryside: str | None = None, town: str | None = None):  # type: ignore[no-untyped-def]
    def fn(t: dict[str, Any]) -> None:
        if countryside:
            t["councilors"][seat]["countryside"] = countryside
        if town:
            t["councilors"][seat]["town"] = town

    return edit(state, fn)


def display(state, location: str, names: list[str]):  # type: ignore[no-untyped-def]
    def fn(t: dict[str, Any]) -> None:
        for loc in t["display"]:
            t["display"][loc] = [a for a in t["display"][loc] if a not in names]
        t["display"][location] = list(names)
        t["b_stack"] = [b for b in t["b_stack"]]

    return edit(state, fn)


# --- titles -----------------------------------------------------------------------------------


def test_raise_titles_in_order() -> None:
    s = clear(playing(start(3)), 0)
    assert "raise_title" not in kinds(s, 0)
    expect_illegal(s, 0, {"kind": "raise_title"}, "cannot_afford")
    s = give(s, 0, gold=1)
    s2 = play(s, 0, {"kind": "raise_title"})
    top = data.TITLE_CARDS["baron"][0]
    assert player(s2, 0)["titles"] == [["baron", top]] and player(s2, 0)["cp"] == top
    assert view_for(s2, 0)["nobility"][0]["top"] == data.TITLE_CARDS["baron"][1]
    expect_illegal(give(s2, 0, gold=5, ring=5), 0, {"kind": "raise_title"}, "bonus_used")
    s3 = set_event(s, "respected_at_court_loved_by_the_people")
    s3 = play(s3, 0, {"kind": "raise_title"})
    assert player(s3, 0)["cp"] == top + 2


def test_title_stack_empty_and_all_titles() -> None:
    def empty(t: dict[str, Any]) -> None:
        t["nobility"]["baron"] = []

    s = give(playing(edit(start(3), empty)), 0, gold=5)
    expect_illegal(s, 0, {"kind": "raise_title"}, "stack_empty")

    def all_titles(t: dict[str, Any]) -> None:
        t["ps"][0]["titles"] = [[x, 1] for x in data.TITLES]

    s = give(playing(edit(start(3), all_titles)), 0, gold=9, ring=9)
    expect_illegal(s, 0, {"kind": "raise_title"}, "no_title_left")


# --- craftsmen --------------------------------------------------------------------------------


def test_rulebook_hut_example() -> None:
    """David wants a craftsman; the 2-wood hut is taken, he pays 1 wood + 1 cloth: 1 CP."""
    s = place(start(3), 0, countryside="forest")

    def taken(t: dict[str, Any]) -> None:
        t["huts"]["forest"][0] = 2
        t["ps"][2]["craftsmen"].append(["forest", 0])
        t["ps"][2]["craftsmen_left"] = 3

    s = clear(playing(edit(s, taken)), 0)
    # moving the town councilor keeps the countryside councilor in the forest
    s = give(s, 0, wood=2, cloth=1)
    hires = [m for m in legal(s, 0) if m["kind"] == "hire_craftsman"]
    assert {
        "kind": "hire_craftsman",
        "location": "forest",
        "hut": 1,
        "pay": {"wood": 1, "cloth": 1},
    } in hires
    assert all(m["hut"] != 0 for m in hires)
    expect_illegal(
        s,
        0,
        {"kind": "hire_craftsman", "location": "forest", "hut": 0, "pay": {"wood": 2}},
        "hut_taken",
    )
    s = play(
        s,
        0,
        {"kind": "hire_craftsman", "location": "forest", "hut": 1, "pay": {"wood": 1, "cloth": 1}},
    )
    p = player(s, 0)
    assert p["cp"] == data.CRAFTSMAN_CP[0] == 1
    assert p["craftsmen"] == [["forest", 1]] and p["craftsmen_left"] == 3
    assert view_for(s, 1)["huts"]["forest"][1]["occupant"] == 0
    expect_illegal(
        give(s, 0, wood=5),
        0,
        {"kind": "hire_craftsman", "location": "forest", "hut": 2, "pay": {"wood": 1, "grain": 1}},
        "bonus_used",
    )


def test_craftsman_location_limit_and_cp_sequence() -> None:
    s = place(start(3), 0, countryside="quarry")
    s = give(clear(playing(s), 0), 0, gold=20)
    expect_illegal(
        s,
        0,
        {"kind": "hire_craftsman", "location": "forest", "hut": 0, "pay": {"gold": 2}},
        "wrong_location",
    )
    expect_illegal(
        s,
        0,
        {"kind": "hire_craftsman", "location": "quarry", "hut": 7, "pay": {"gold": 2}},
        "bad_hut",
    )
    expect_illegal(
        s,
        0,
        {"kind": "hire_craftsman", "location": "quarry", "hut": 0, "pay": {"gold": 3}},
        "bad_payment",
    )

    def three(t: dict[str, Any]) -> None:
        for hut in range(3):
            t["huts"]["quarry"][hut] = 0
            t["ps"][0]["craftsmen"].append(["quarry", hut])
        t["ps"][0]["craftsmen_left"] = 1

    s3 = edit(s, three)
    expect_illegal(
        s3,
        0,
        {"kind": "hire_craftsman", "location": "quarry", "hut": 3, "pay": {"gold": 2}},
        "craftsmen_limit",
    )
    s2 = edit(
        s, lambda t: t["ps"][0].update(craftsmen_left=2, craftsmen=[["forest", 0], ["forest", 1]])
    )
    s2 = play(s2, 0, {"kind": "hire_craftsman", "location": "quarry", "hut": 0, "pay": {"gold": 2}})
    assert player(s2, 0)["cp"] == data.CRAFTSMAN_CP[2]
    s0 = edit(s, lambda t: t["ps"][0].update(craftsmen_left=0))
    expect_illegal(
        s0,
        0,
        {"kind": "hire_craftsman", "location": "quarry", "hut": 0, "pay": {"gold": 2}},
        "no_craftsman_left",
    )


# --- advisors ---------------------------------------------------------------------------------


def test_hire_advisor_at_town_location_and_refill() -> None:
    s = display(place(start(3), 0, town="castle"), "castle", ["baker", "scholar"])
    s = clear(playing(s), 0)
    s = place(s, 0, town="castle")
    s = give(s, 0, grain=1, wood=1)
    b_top = encode_state(s)["b_stack"][0]
    assert {"kind": "hire_advisor", "advisor": "baker", "pay": {"wood": 1, "grain": 1}} in legal(
        s, 0
    )
    expect_illegal(
        s, 0, {"kind": "hire_advisor", "advisor": "baker", "pay": {"wood": 2}}, "bad_payment"
    )
    s = play(s, 0, {"kind": "hire_advisor", "advisor": "baker", "pay": {"wood": 1, "grain": 1}})
    v = view_for(s, 1)
    assert v["players_state"][0]["advisors"] == ["baker"]
    assert v["players_state"][0]["cp"] == data.ADVISOR_CP["baker"]
    assert v["advisors"]["display"]["castle"] == [b_top, "scholar"]
    assert v["advisors"]["b_left"] == 5
    expect_illegal(
        give(s, 0, wood=5, grain=5),
        0,
        {"kind": "hire_advisor", "advisor": "scholar", "pay": {"wood": 1, "grain": 1}},
        "bonus_used",
    )


def test_hire_advisor_elsewhere_needs_steward() -> None:
    s = display(place(start(3), 0, town="castle"), "market", ["baker", "scholar"])
    s = give(clear(playing(s), 0), 0, wood=1, grain=1)
    s = place(s, 0, town="castle")
    expect_illegal(
        s,
        0,
        {"kind": "hire_advisor", "advisor": "baker", "pay": {"wood": 1, "grain": 1}},
        "wrong_location",
    )
    expect_illegal(
        s,
        0,
        {"kind": "hire_advisor", "advisor": "sir_nobody", "pay": {"wood": 1}},
        "advisor_not_available",
    )
    s = advisors(s, 0, ["steward"])
    s = play(s, 0, {"kind": "hire_advisor", "advisor": "baker", "pay": {"wood": 1, "grain": 1}})
    assert player(s, 0)["advisors"] == ["steward", "baker"]


def test_steward_hires_craftsmen_anywhere() -> None:
    s = place(start(3), 0, countryside="quarry")
    s = advisors(give(clear(playing(s), 0), 0, wood=2), 0, ["steward"])
    s = play(s, 0, {"kind": "hire_craftsman", "location": "forest", "hut": 0, "pay": {"wood": 2}})
    assert player(s, 0)["craftsmen"] == [["forest", 0]]


def test_scholar_pays_any_resources() -> None:
    s = place(start(3), 0, countryside="quarry")
    s = advisors(give(clear(playing(s), 0), 0, grain=2), 0, ["scholar"])
    s2 = play(s, 0, {"kind": "hire_craftsman", "location": "quarry", "hut": 0, "pay": {"grain": 2}})
    assert player(s2, 0)["res"]["grain"] == 0
    expect_illegal(
        s,
        0,
        {"kind": "hire_craftsman", "location": "quarry", "hut": 0, "pay": {"grain": 1}},
        "bad_payment",
    )


def test_hire_discount_card_is_not_the_bonus_hire() -> None:
    s = display(
        place(start(3), 0, town="castle", countryside="forest"), "castle", ["baker", "merchant"]
    )
    s = set_event(hand(clear(s, 0), 0, ["hire_discount", "take_wood", "gold"]), None)
    s = give(s, 0, grain=2, wood=1, cloth=1)
    s = play(s, 0, {"kind": "play_card", "card": "hire_discount", "slot": 1})
    acts = [m for m in legal(s, 0) if m["kind"] == "card_action"]
    assert {
        "kind": "card_action",
        "hire": "advisor",
        "advisor": "baker",
        "pay": {"grain": 1},
    } in acts
    assert {
        "kind": "card_action",
        "hire": "craftsman",
        "location": "forest",
        "hut": 0,
        "pay": {"wood": 1},
    } in acts
    expect_illegal(
        s,
        0,
        {
            "kind": "card_action",
            "hire": "advisor",
            "advisor": "baker",
            "pay": {"wood": 1, "grain": 1},
        },
        "bad_payment",
    )
    expect_illegal(
        s, 0, {"kind": "card_action", "hire": "advisor", "advisor": "baker"}, "malformed_move"
    )
    s = play(
        s, 0, {"kind": "card_action", "hire": "advisor", "advisor": "baker", "pay": {"grain": 1}}
    )
    assert player(s, 0)["advisors"] == ["baker"]
    assert view_for(s, 0)["turn"]["bonus_used"]["hire_advisor"] is False
    s = play(s, 0, {"kind": "hire_advisor", "advisor": "merchant", "pay": {"grain": 1, "cloth": 1}})
    assert player(s, 0)["advisors"] == ["baker", "merchant"]


def test_good_labour_and_discount_stack() -> None:
    s = display(place(start(3), 0, town="castle"), "castle", ["master_of_coin", "baker"])
    s = set_event(
        hand(clear(s, 0), 0, ["hire_discount", "take_wood", "gold"]), "good_labour_situation"
    )
    s = give(s, 0, stone=1)
    s = give(s, 0, stone=1)
    s = play(s, 0, {"kind": "play_card", "card": "hire_discount", "slot": 1})
    assert {
        "kind": "card_action",
        "hire": "advisor",
        "advisor": "master_of_coin",
        "pay": {"stone": 1},
    } in legal(s, 0)
    s = play(
        s,
        0,
        {
            "kind": "card_action",
            "hire": "advisor",
            "advisor": "master_of_coin",
            "pay": {"stone": 1},
        },
    )
    p = player(s, 0)
    assert p["goods"]["gold"] == 1 and p["cp"] == 6


@pytest.mark.parametrize(
    ("advisor", "effect"),
    [
        ("master_of_coin", {"gold": 1, "cp": 6}),
        ("archivist", {"book": 2, "cp": 2}),
        ("goldsmith", {"ring": 1, "cp": 5}),
        ("carpenter", {"bp": 10, "cp": 1}),
        ("sir_christiaan", {"cp": 8}),
        ("lady_marie", {"cp": 8}),
        ("sir_carl", {"cp": 10}),
        ("lady_frida", {"cp": 12}),
        ("sir_gustave", {"bp": 12}),
        ("sir_antoni", {"bp": 12}),
    ],
)
def test_immediate_advisors(advisor: str, effect: dict[str, int]) -> None:
    s = display(place(start(3), 0, town="market"), "market", [advisor])
    s = give(clear(playing(s), 0), 0, gold=5)
    s = place(s, 0, town="market")
    bp = player(s, 0)["bp"]
    cost = sum(data.ADVISOR_COST[advisor].values())
    s = play(s, 0, {"kind": "hire_advisor", "advisor": advisor, "pay": {"gold": cost}})
    p = player(s, 0)
    assert p["cp"] == effect.get("cp", 0)
    assert p["bp"] == bp + effect.get("bp", 0)
    assert p["goods"]["gold"] == 5 - cost + effect.get("gold", 0)
    assert p["goods"]["book"] == effect.get("book", 0)
    assert p["goods"]["ring"] == effect.get("ring", 0)


def test_toolmaker_and_events_modify_every_bp_gain() -> None:
    s = display(place(start(3), 0, town="market"), "market", ["carpenter"])
    s = advisors(give(clear(playing(s), 0), 0, gold=5), 0, ["toolmaker"])
    s = place(s, 0, town="market")
    bp = player(s, 0)["bp"]
    s1 = play(
        set_event(s, "a_long_summer"),
        0,
        {"kind": "hire_advisor", "advisor": "carpenter", "pay": {"gold": 3}},
    )
    assert player(s1, 0)["bp"] == bp + 10 + 2 + 2
    s2 = play(
        set_event(s, "an_early_winter"),
        0,
        {"kind": "hire_advisor", "advisor": "carpenter", "pay": {"gold": 3}},
    )
    assert player(s2, 0)["bp"] == bp + 10 + 2 - 1


def use(state, **move: Any):  # type: ignore[no-untyped-def]
    return play(state, 0, {"kind": "use_advisor", **move})


def test_per_turn_advisors() -> None:
    s = clear(playing(start(3)), 0)
    s = advisors(s, 0, ["baker", "schoolmarm", "bailiff", "dressmaker", "landlord", "merchant"])
    s = give(s, 0, cloth=4, grain=3, ring=1, wood=2, cp=3)
    names = {m["advisor"] for m in legal(s, 0) if m["kind"] == "use_advisor"}
    assert names == {"baker", "schoolmarm", "bailiff", "dressmaker", "landlord", "merchant"}
    bp = player(s, 0)["bp"]
    s = use(s, advisor="baker", bread=2, pay={"cloth": 1, "grain": 2})
    expect_illegal(
        s,
        0,
        {"kind": "use_advisor", "advisor": "baker", "bread": 1, "pay": {"cloth": 1, "grain": 1}},
        "advisor_used",
    )
    s = use(s, advisor="schoolmarm", pay={"wood": 2})
    s = use(s, advisor="bailiff")
    s = use(s, advisor="dressmaker", pay={"cloth": 1})
    s = use(s, advisor="landlord", pay={"cloth": 1})
    s = use(s, advisor="merchant", pay={"cloth": 1}, take="stone")
    p = player(s, 0)
    assert p["goods"]["bread"] == 2 and p["goods"]["book"] == 1 and p["goods"]["ring"] == 0
    assert p["bp"] == bp + 5 + 5
    assert p["cp"] == 3 + 2 - 1
    assert p["res"] == {"wood": 0, "stone": 1, "cloth": 0, "grain": 1}
    assert sorted(view_for(s, 0)["turn"]["advisors_used"]) == sorted(
        ["baker", "schoolmarm", "bailiff", "dressmaker", "landlord", "merchant"]
    )
    assert "use_advisor" not in kinds(s, 0)


def test_advisor_ability_errors() -> None:
    s = advisors(clear(playing(start(3)), 0), 0, ["merchant", "landlord", "mayoress"])
    s = give(s, 0, wood=1, cloth=1)
    expect_illegal(
        s,
        0,
        {"kind": "use_advisor", "advisor": "baker", "bread": 1, "pay": {}},
        "advisor_not_owned",
    )
    expect_illegal(s, 0, {"kind": "use_advisor", "advisor": "mayoress"}, "no_ability")
    expect_illegal(
        s,
        0,
        {"kind": "use_advisor", "advisor": "merchant", "pay": {"wood": 1}, "take": "wood"},
        "bad_resource",
    )
    expect_illegal(
        s, 0, {"kind": "use_advisor", "advisor": "merchant", "pay": {"wood": 1}}, "malformed_move"
    )
    expect_illegal(
        s, 0, {"kind": "use_advisor", "advisor": "landlord", "pay": {"cloth": 1}}, "cannot_afford"
    )


def test_chamberlain_any_number_of_times() -> None:
    s = advisors(give(clear(playing(start(3)), 0), 0, ring=2, gold=0), 0, ["chamberlain"])
    assert [m.get("give") for m in legal(s, 0) if m["kind"] == "use_advisor"] == ["ring"]
    s = use(s, advisor="chamberlain", give="ring")
    s = use(s, advisor="chamberlain", give="ring")
    s = use(s, advisor="chamberlain", give="gold")
    p = player(s, 0)
    assert p["goods"]["ring"] == 1 and p["goods"]["gold"] == 1
    assert view_for(s, 0)["turn"]["advisors_used"] == []


def test_advisor_used_once_per_turn_even_the_turn_it_is_hired() -> None:
    s = display(place(start(3), 0, town="castle"), "castle", ["dressmaker"])
    s = give(clear(playing(s), 0), 0, cloth=4, grain=1)
    s = place(s, 0, town="castle")
    s = play(
        s, 0, {"kind": "hire_advisor", "advisor": "dressmaker", "pay": {"cloth": 2, "grain": 1}}
    )
    s = use(s, advisor="dressmaker", pay={"cloth": 1})
    expect_illegal(
        s, 0, {"kind": "use_advisor", "advisor": "dressmaker", "pay": {"cloth": 1}}, "advisor_used"
    )
