"""Countryside and town location actions, markers, favor tokens."""

from __future__ import annotations

from typing import Any

from app.rules import data, encode_state, view_for

from .helpers import (
    advisors,
    clear,
    edit,
    events,
    expect_illegal,
    give,
    kinds,
    legal,
    play,
    player,
    set_event,
    start,
    visit,
)


def with_craftsmen(state, seat: int, location: str, n: int):  # type: ignore[no-untyped-def]
    def fn(t: dict[str, Any]) -> None:
        for hut in range(n):
            t["huts"][location][hut] = seat
            t["ps"][seat]["craftsmen"].append([location, hut])
            t["ps"][seat]["craftsmen_left"] -= 1

    return edit(state, fn)


def test_harvest_plain_and_with_craftsmen() -> None:
    s = clear(start(2), 0)
    s = visit(s, "forest")
    assert [m for m in legal(s, 0) if m["kind"] == "harvest"] == [{"kind": "harvest", "extra": []}]
    s1 = play(s, 0, {"kind": "harvest", "extra": []})
    assert player(s1, 0)["res"]["wood"] == 1
    expect_illegal(s1, 0, {"kind": "harvest", "extra": []}, "action_used")

    s = with_craftsmen(clear(start(2), 0), 0, "quarry", 2)
    s = give(visit(s, "quarry"), 0, grain=1)
    options = [m["extra"] for m in legal(s, 0) if m["kind"] == "harvest"]
    assert options == [["resource", "resource"], ["resource", "bread"]]
    expect_illegal(s, 0, {"kind": "harvest", "extra": ["resource"]}, "bad_harvest")
    expect_illegal(s, 0, {"kind": "harvest", "extra": ["bread", "bread"]}, "cannot_afford")
    s2 = play(s, 0, {"kind": "harvest", "extra": ["bread", "resource"]})
    p = player(s2, 0)
    assert p["res"]["stone"] == 2 and p["goods"]["bread"] == 1 and p["res"]["grain"] == 0


def test_harvest_grain_field_bread_from_harvested_grain() -> None:
    s = with_craftsmen(clear(start(2), 0), 0, "grain_field", 3)
    s = visit(s, "grain_field")
    options = [m["extra"] for m in legal(s, 0) if m["kind"] == "harvest"]
    assert options[-1][-2:] == ["bread", "bread"]
    s = play(s, 0, {"kind": "harvest", "extra": ["resource", "bread", "bread"]})
    p = player(s, 0)
    assert p["res"]["grain"] == 0 and p["goods"]["bread"] == 2


def test_other_players_craftsmen_do_not_count() -> None:
    s = with_craftsmen(clear(start(2), 0), 1, "forest", 2)
    s = visit(s, "forest")
    assert [m["extra"] for m in legal(s, 0) if m["kind"] == "harvest"] == [[]]


def test_castle_gift_marker_advances_and_falls_back_to_board() -> None:
    s = start(3)
    seq = data.MARKERS["gift"]["2-3"]
    s = clear(s, 0)
    s = give(visit(s, "castle"), 0, wood=10)
    expect_illegal(
        s, 0, {"kind": "castle_gift", "resource": "wood", "pay": {"wood": 2}}, "bad_payment"
    )
    expect_illegal(
        s, 0, {"kind": "castle_gift", "resource": "mud", "pay": {"wood": 1}}, "bad_resource"
    )
    s = play(s, 0, {"kind": "castle_gift", "resource": "wood", "pay": {"wood": seq[0]}})
    assert player(s, 0)["goods"]["ring"] == 1
    m = view_for(s, 0)["markers"]["gift"]["wood"]
    assert m == {"value": seq[1], "steps_left": len(seq) - 2, "removed": False}
    expect_illegal(
        s, 0, {"kind": "castle_gift", "resource": "wood", "pay": {"wood": seq[1]}}, "action_used"
    )

    def used(t: dict[str, Any]) -> None:
        t["markers"]["gift"]["wood"] = [seq[-1]]

    s = edit(s, used)
    s = play(s, 0, {"kind": "move", "councilor": "countryside"})
    s = play(s, 0, {"kind": "end_turn"})
    s = give(visit(s, "castle"), 1, wood=10)
    s = play(s, 1, {"kind": "castle_gift", "resource": "wood", "pay": {"wood": seq[-1]}})
    m = view_for(s, 0)["markers"]["gift"]["wood"]
    assert m == {"value": data.MARKERS["gift"]["board"], "steps_left": 0, "removed": True}


def test_gold_is_a_wildcard_for_gifts() -> None:
    s = give(clear(visit(start(3), "castle"), 0), 0, cloth=0, gold=1)
    pays = [m for m in legal(s, 0) if m["kind"] == "castle_gift"]
    assert {"kind": "castle_gift", "resource": "cloth", "pay": {"gold": 1}} in pays
    s = play(s, 0, {"kind": "castle_gift", "resource": "cloth", "pay": {"gold": 1}})
    assert player(s, 0)["goods"] == {"bread": 0, "book": 0, "ring": 1, "gold": 0}


def test_castle_book() -> None:
    s = clear(visit(start(3), "castle"), 0)
    assert "castle_book" not in kinds(s, 0)
    expect_illegal(s, 0, {"kind": "castle_book"}, "cannot_afford")
    s = give(s, 0, book=1)
    bp = player(s, 0)["bp"]
    s = play(s, 0, {"kind": "castle_book"})
    assert player(s, 0)["bp"] == bp + data.CASTLE_BOOK_BP and player(s, 0)["goods"]["book"] == 0


def test_mayoress_and_gift_event() -> None:
    s = advisors(
        give(visit(set_event(start(3), "a_gift_from_the_people"), "castle"), 0, wood=1),
        0,
        ["mayoress"],
    )
    cp = player(s, 0)["cp"]
    s = play(s, 0, {"kind": "castle_gift", "resource": "wood", "pay": {"wood": 1}})
    assert player(s, 0)["cp"] == cp + 2 + 3


def test_rulebook_cloth_donation_marker_1_then_2() -> None:
    """Rulebook: the donation marker shows 1 cloth; you pay 1 and it now shows 2."""
    s = clear(start(3), 0)
    s = give(visit(s, "cathedral"), 0, cloth=3)
    assert view_for(s, 0)["markers"]["donation"]["cloth"]["value"] == 1
    evs = events(s, 0, {"kind": "cathedral_donation", "resource": "cloth", "pay": {"cloth": 1}})
    s = play(s, 0, {"kind": "cathedral_donation", "resource": "cloth", "pay": {"cloth": 1}})
    assert view_for(s, None)["markers"]["donation"]["cloth"]["value"] == 2
    assert player(s, 0)["res"]["cloth"] == 2 and player(s, 0)["goods"]["book"] == 1
    drawn = next(e for e in evs if e["type"] == "favor_drawn")
    assert drawn["count"] == 3 and drawn["private"] == 0


def test_donation_keep_favor_decision_and_no_cash_same_visit() -> None:
    s = clear(start(3), 0)

    def pile(t: dict[str, Any]) -> None:
        # cathedral tokens 3, 4, 5 on top of the pile
        t["favor"]["pile"] = [3, 4, 5] + [i for i in range(12) if i not in (3, 4, 5)]

    s = give(visit(edit(s, pile), "cathedral"), 0, wood=2)
    s = play(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    assert view_for(s, 0)["me"]["decision"]["kind"] == "keep_favor"
    assert [t["id"] for t in view_for(s, 0)["me"]["decision"]["tokens"]] == [3, 4, 5]
    assert view_for(s, 1)["me"]["decision"] is None
    assert legal(s, 0) == [{"kind": "keep_favor", "token": t} for t in (3, 4, 5)]
    expect_illegal(s, 0, {"kind": "end_visit"}, "decision_pending")
    expect_illegal(s, 0, {"kind": "keep_favor", "token": 7}, "bad_token")
    s = play(s, 0, {"kind": "keep_favor", "token": 4})
    v = view_for(s, 1)
    assert v["players_state"][0]["favor_tokens"] == [
        {"id": 4, "location": "cathedral", "reward": {"ring": 1}}
    ]
    assert v["favor"] == {"pile": 9, "discard": 2}
    assert "cash_favor" not in kinds(s, 0)
    expect_illegal(s, 0, {"kind": "cash_favor", "token": 4}, "token_fresh")
    expect_illegal(s, 0, {"kind": "keep_favor", "token": 4}, "no_decision")


def test_cash_favor_at_its_location() -> None:
    def tokens(t: dict[str, Any]) -> None:
        t["ps"][0]["favor"] = [0, 1, 9]  # castle cp, castle bp, market cp

    s = edit(start(3), tokens)
    s = visit(s, "castle")
    cash = [m["token"] for m in legal(s, 0) if m["kind"] == "cash_favor"]
    assert cash == [0, 1]
    expect_illegal(s, 0, {"kind": "cash_favor", "token": 9}, "wrong_location")
    expect_illegal(s, 0, {"kind": "cash_favor", "token": 5}, "token_not_owned")
    cp, bp = player(s, 0)["cp"], player(s, 0)["bp"]
    s = play(s, 0, {"kind": "cash_favor", "token": 0})
    s = play(s, 0, {"kind": "cash_favor", "token": 1})
    assert player(s, 0)["cp"] == cp + 3 and player(s, 0)["bp"] == bp + 3
    assert player(s, 0)["favor"] == [9]
    assert view_for(s, 0)["favor"]["discard"] == 2


def test_favor_pile_reshuffles_discards() -> None:
    def low(t: dict[str, Any]) -> None:
        t["favor"]["pile"] = [0]
        t["favor"]["discard"] = [1, 2, 3, 4]
        t["ps"][1]["favor"] = [5, 6, 7, 8, 9, 10, 11]

    s = give(visit(edit(start(3), low), "cathedral"), 0, wood=1)
    evs = events(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    assert "favor_pile_reshuffled" in [e["type"] for e in evs]
    s = play(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    drawn = encode_state(s)["decision"]["tokens"]
    assert drawn[0] == 0 and len(drawn) == 3 and set(drawn[1:]) <= {1, 2, 3, 4}
    assert view_for(s, 0)["favor"] == {"pile": 2, "discard": 0}


def test_abbess_and_pious_donation() -> None:
    s = advisors(
        give(visit(set_event(start(3), "a_pious_donation"), "cathedral"), 0, wood=1, book=0),
        0,
        ["abbess"],
    )
    cp = player(s, 0)["cp"]
    s = play(s, 0, {"kind": "cathedral_donation", "resource": "wood", "pay": {"wood": 1}})
    assert player(s, 0)["goods"]["book"] == 2 and player(s, 0)["cp"] == cp + 3


def test_construction_site() -> None:
    s = clear(start(3), 0)
    s = give(visit(s, "construction_site"), 0, stone=1, wood=3, bread=4)
    stone = data.MARKERS["stone"]["2-3"]
    bread = data.MARKERS["bread"]["2-3"]
    cp, bp = player(s, 0)["cp"], player(s, 0)["bp"]
    s = play(s, 0, {"kind": "deliver_stone", "pay": {"stone": 1}})
    assert player(s, 0)["cp"] == cp + stone[0] and player(s, 0)["bp"] == bp + data.STONE_BP
    assert view_for(s, 0)["markers"]["stone"]["value"] == stone[1]
    expect_illegal(s, 0, {"kind": "deliver_bread", "count": 4}, "bad_count")
    s = play(s, 0, {"kind": "deliver_bread", "count": 3})
    assert player(s, 0)["cp"] == cp + stone[0] + 3 * bread[0]
    assert view_for(s, 0)["markers"]["bread"]["value"] == bread[1]
    expect_illegal(s, 0, {"kind": "deliver_wood", "count": 2, "pay": {"wood": 2}}, "bad_count")
    s = play(s, 0, {"kind": "deliver_wood", "count": 3, "pay": {"wood": 3}})
    assert player(s, 0)["bp"] == bp + data.STONE_BP + data.WOOD_BP[3]
    assert {"deliver_stone", "deliver_bread", "deliver_wood"}.isdisjoint(kinds(s, 0))


def test_rulebook_market_books_table() -> None:
    assert data.MARKET_BOOKS_CP == {1: 3, 2: 6, 3: 10, 4: 15, 5: 21}
    for count, cp in data.MARKET_BOOKS_CP.items():
        s = give(visit(clear(start(3), 0), "market"), 0, book=5)
        before = player(s, 0)["cp"]
        s = play(s, 0, {"kind": "market_books", "count": count})
        assert player(s, 0)["cp"] == before + cp
        assert player(s, 0)["goods"]["book"] == 5 - count
    s = give(visit(clear(start(3), 0), "market"), 0, book=2)
    assert [m["count"] for m in legal(s, 0) if m["kind"] == "market_books"] == [1, 2]
    expect_illegal(s, 0, {"kind": "market_books", "count": 3}, "cannot_afford")
    expect_illegal(s, 0, {"kind": "market_books", "count": 6}, "bad_count")


def test_market_gold_and_merchants_from_afar() -> None:
    s = give(visit(clear(start(3), 0), "market"), 0, wood=1, grain=1)
    pays = [m["pay"] for m in legal(s, 0) if m["kind"] == "market_gold"]
    assert pays == [{"wood": 1}, {"grain": 1}] or sorted(map(str, pays)) == sorted(
        map(str, [{"wood": 1}, {"grain": 1}])
    )
    expect_illegal(s, 0, {"kind": "market_gold", "pay": {"wood": 1, "grain": 1}}, "bad_payment")
    s1 = play(s, 0, {"kind": "market_gold", "pay": {"grain": 1}})
    assert player(s1, 0)["goods"]["gold"] == 1
    s = set_event(s, "merchants_from_afar")
    assert {"wood": 1, "grain": 1} in [m["pay"] for m in legal(s, 0) if m["kind"] == "market_gold"]
    s2 = play(s, 0, {"kind": "market_gold", "pay": {"wood": 1, "grain": 1}})
    assert player(s2, 0)["goods"]["gold"] == 2


def test_mayoress_and_abbess_apply_on_every_use_in_a_turn() -> None:
    """Two visits in one turn (town_action card, then a movement): both permanent bonuses twice."""
    for advisor, location, kind, key in [
        ("mayoress", "castle", "castle_gift", "cp"),
        ("abbess", "cathedral", "cathedral_donation", "book"),
    ]:
        s = set_event(clear(start(3), 0), None)
        s = advisors(give(visit(s, location), 0, wood=4, stone=4), 0, [advisor])

        def before_target(t: dict[str, Any], location: str = location) -> None:
            rondel = t["rondels"]["town"]
            t["councilors"][0]["town"] = rondel[(rondel.index(location) - 1) % 4]

        s = play(s, 0, {"kind": kind, "resource": "wood", "pay": {"wood": 1}})
        if kind == "cathedral_donation":
            s = play(
                s, 0, {"kind": "keep_favor", "token": encode_state(s)["decision"]["tokens"][0]}
            )
        s = edit(s, before_target)
        s = play(s, 0, {"kind": "move", "councilor": "town"})
        assert view_for(s, 0)["turn"]["visit"]["location"] == location
        s = play(s, 0, {"kind": kind, "resource": "stone", "pay": {"stone": 1}})
        p = player(s, 0)
        if key == "cp":
            assert p["cp"] == 2 * data.EFFECTS["mayoress_gift_cp"]
            assert p["goods"]["ring"] == 2
        else:
            assert p["goods"]["book"] == 2 * (1 + data.EFFECTS["abbess_donation_book"])
