"""A turn: play a card on an empty slot, card action, mandatory movement, visits, end of turn."""

from __future__ import annotations

from app.rules import encode_state, legal_moves, to_act, view_for

from .helpers import (
    clear,
    events,
    expect_illegal,
    give,
    hand,
    kinds,
    legal,
    play,
    player,
    start,
    visit,
)


def test_play_card_rules() -> None:
    s = hand(start(2), 0, ["take_wood", "gold", "move1"])
    assert len(legal(s, 0)) == 9
    expect_illegal(
        s, 0, {"kind": "play_card", "card": "town_action", "slot": 1}, "card_not_in_hand"
    )
    expect_illegal(s, 0, {"kind": "play_card", "card": "gold", "slot": 4}, "bad_slot")
    expect_illegal(s, 0, {"kind": "move", "councilor": "town"}, "must_play_card")
    expect_illegal(s, 0, {"kind": "end_turn"}, "must_play_card")
    s = play(s, 0, {"kind": "play_card", "card": "take_wood", "slot": 2})
    expect_illegal(s, 0, {"kind": "play_card", "card": "gold", "slot": 1}, "card_already_played")
    assert view_for(s, 0)["me"]["hand"] == ["gold", "move1"]
    assert view_for(s, 1)["players_state"][0]["slots"] == {"1": None, "2": "take_wood", "3": None}


def test_movement_is_mandatory_and_once() -> None:
    s = hand(start(2), 0, ["take_wood", "gold", "move1"])
    s = play(s, 0, {"kind": "play_card", "card": "take_wood", "slot": 3})
    expect_illegal(s, 0, {"kind": "end_turn"}, "must_move_first")
    assert "end_turn" not in kinds(s, 0)
    tree = encode_state(s)
    rondel = tree["rondels"]["town"]
    here = tree["councilors"][0]["town"]
    expect_illegal(s, 0, {"kind": "move", "councilor": "sky"}, "bad_councilor")
    s = play(s, 0, {"kind": "move", "councilor": "town"})
    there = encode_state(s)["councilors"][0]["town"]
    assert rondel.index(there) == (rondel.index(here) + 3) % 4
    expect_illegal(s, 0, {"kind": "move", "councilor": "countryside"}, "already_moved")
    assert "end_turn" in kinds(s, 0)


def test_slot_taken_in_later_turn_and_turn_order() -> None:
    s = hand(start(2), 0, ["take_wood", "gold", "move1"])
    s = play(s, 0, {"kind": "play_card", "card": "take_wood", "slot": 1})
    s = play(s, 0, {"kind": "move", "councilor": "countryside"})
    s = play(s, 0, {"kind": "end_turn"})
    assert to_act(s) == [1]
    v = view_for(s, None)
    assert v["turn"]["seat"] == 1 and v["turn"]["number"] == 1
    assert v["players_state"][0]["turns_taken"] == 1
    s = hand(s, 1, ["take_wood", "gold", "move1"])
    s = play(s, 1, {"kind": "play_card", "card": "gold", "slot": 1})
    s = play(s, 1, {"kind": "move", "councilor": "countryside"})
    s = play(s, 1, {"kind": "end_turn"})
    assert to_act(s) == [0]
    assert view_for(s, None)["turn"]["number"] == 2
    expect_illegal(s, 0, {"kind": "play_card", "card": "gold", "slot": 1}, "slot_taken")


def test_take_cards_and_card_action_once() -> None:
    for card, key in [
        ("take_wood", "wood"),
        ("take_stone", "stone"),
        ("take_cloth", "cloth"),
        ("take_grain", "grain"),
        ("take_ring", "ring"),
    ]:
        s = clear(hand(start(2), 0, [card, "gold", "move1"]), 0)
        s = play(s, 0, {"kind": "play_card", "card": card, "slot": 1})
        assert {"kind": "card_action"} in legal(s, 0)
        expect_illegal(s, 0, {"kind": "card_action", "pay": {"wood": 1}}, "malformed_move")
        s = play(s, 0, {"kind": "card_action"})
        p = player(s, 0)
        assert {**p["res"], **p["goods"]}[key] == 1
        expect_illegal(s, 0, {"kind": "card_action"}, "action_used")


def test_gold_card() -> None:
    s = give(
        clear(hand(start(2), 0, ["gold", "take_wood", "move1"]), 0), 0, wood=2, cloth=1, gold=1
    )
    s = play(s, 0, {"kind": "play_card", "card": "gold", "slot": 1})
    pays = [m["pay"] for m in legal(s, 0) if m["kind"] == "card_action"]
    assert {"wood": 1} in pays and {"wood": 2, "cloth": 1} in pays
    assert all("gold" not in p for p in pays)
    expect_illegal(s, 0, {"kind": "card_action", "pay": {"wood": 2}}, "bad_payment")
    expect_illegal(s, 0, {"kind": "card_action", "pay": {"grain": 1}}, "cannot_afford")
    s3 = play(s, 0, {"kind": "card_action", "pay": {"wood": 2, "cloth": 1}})
    assert player(s3, 0)["goods"]["gold"] == 3
    s1 = play(s, 0, {"kind": "card_action", "pay": {"cloth": 1}})
    assert player(s1, 0)["goods"]["gold"] == 2 and player(s1, 0)["res"]["cloth"] == 0


def test_move1_is_a_second_movement_with_a_visit() -> None:
    s = hand(start(2), 0, ["move1", "take_wood", "gold"])
    s = play(s, 0, {"kind": "play_card", "card": "move1", "slot": 2})
    tree = encode_state(s)
    rondel = tree["rondels"]["countryside"]
    here = tree["councilors"][0]["countryside"]
    s = play(s, 0, {"kind": "card_action", "councilor": "countryside"})
    v = view_for(s, 0)
    assert v["councilors"][0]["countryside"] == rondel[(rondel.index(here) + 1) % 4]
    assert v["turn"]["visit"]["via"] == "move1"
    assert not v["turn"]["moved"]
    s = play(s, 0, {"kind": "move", "councilor": "countryside"})
    v = view_for(s, 0)
    assert v["councilors"][0]["countryside"] == rondel[(rondel.index(here) + 3) % 4]
    assert v["turn"]["visit"]["via"] == "move"


def test_town_action_any_town_location() -> None:
    s = hand(start(2), 0, ["town_action", "take_wood", "gold"])
    s = play(s, 0, {"kind": "play_card", "card": "town_action", "slot": 1})
    locs = [m["location"] for m in legal(s, 0) if m["kind"] == "card_action"]
    assert locs == ["castle", "cathedral", "construction_site", "market"]
    expect_illegal(s, 0, {"kind": "card_action", "location": "forest"}, "bad_location")
    s = play(s, 0, {"kind": "card_action", "location": "market"})
    assert view_for(s, 0)["turn"]["visit"] == {
        "location": "market",
        "via": "town_action",
        "done": [],
        "fresh": [],
    }


def test_visit_closes_on_other_moves_and_end_visit() -> None:
    s = give(visit(start(2), "market"), 0, wood=3, book=2)
    assert view_for(s, 0)["turn"]["visit"]["location"] == "market"
    s2 = play(s, 0, {"kind": "end_visit"})
    assert view_for(s2, 0)["turn"]["visit"] is None
    expect_illegal(s2, 0, {"kind": "market_books", "count": 1}, "no_visit")
    expect_illegal(s2, 0, {"kind": "end_visit"}, "no_visit")
    # any non-visit move closes the visit
    evs = events(s, 0, {"kind": "move", "councilor": "countryside"})
    types = [e["type"] for e in evs]
    assert types[0] == "visit_closed" and "visit_opened" in types


def test_each_visit_action_once() -> None:
    s = give(visit(start(2), "market"), 0, wood=3, book=3)
    s = play(s, 0, {"kind": "market_books", "count": 1})
    expect_illegal(s, 0, {"kind": "market_books", "count": 1}, "action_used")
    expect_illegal(s, 0, {"kind": "castle_book"}, "wrong_location")
    assert "market_books" not in kinds(s, 0)
    assert view_for(s, 0)["turn"]["visit"]["done"] == ["market_books"]


def test_full_turn_cycle_of_a_round() -> None:
    s = start(3)
    seen = []
    while view_for(s, None)["round"] == 1:
        seat = to_act(s)[0]
        seen.append(seat)
        card = view_for(s, seat)["me"]["hand"][0]
        free = [
            k for k, v in view_for(s, None)["players_state"][seat]["slots"].items() if v is None
        ]
        s = play(s, seat, {"kind": "play_card", "card": card, "slot": int(free[0])})
        s = play(s, seat, {"kind": "move", "councilor": "countryside"})
        while (
            view_for(s, None)["phase"] == "turns"
            and to_act(s) == [seat]
            and view_for(s, None)["turn"]["seat"] == seat
            and view_for(s, None)["turn"]["card"] is not None
        ):
            s = play(s, seat, {"kind": "end_turn"})
            break
        while view_for(s, None)["phase"] == "end_of_round":
            who = to_act(s)[0]
            s = play(s, who, {"kind": "decline"})
    assert seen == [0, 1, 2] * 3
    v = view_for(s, None)
    assert v["round"] == 2 and v["statue"] == 1 and to_act(s) == [1]
    assert all(p["slots"] == {"1": None, "2": None, "3": None} for p in v["players_state"])
    assert all(p["hand_size"] == 3 and p["deck_size"] == 3 for p in v["players_state"])
    assert legal_moves(s, 0) == []
