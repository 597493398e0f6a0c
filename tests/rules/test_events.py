"""Events: reveal, round-long and end-of-round timing; round end, statue and card reshuffle."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import data, encode_state, to_act, view_for

from .helpers import (
    clear,
    edit,
    events,
    expect_illegal,
    give,
    legal,
    play,
    player,
    set_event,
    start,
    visit,
)


def to_last_turn(state, next_event: str | None = None, current: str | None = "keep"):  # type: ignore[no-untyped-def]
    """Jump to the last turn of the round; optionally set this round's and next round's event."""

    def fn(t: dict[str, Any]) -> None:
        n = t["players"]
        t["turn_index"] = 3 * n - 1
        seat = (t["statue"] + 3 * n - 1) % n
        t["turn"]["seat"] = seat
        t["turn"]["number"] = 3
        for p in t["ps"]:
            p["hand"] = []
            p["slots"] = ["take_wood", "take_stone", "take_cloth"]
            p["turns_taken"] = 3
        p = t["ps"][seat]
        p["hand"] = ["gold"]
        p["slots"] = ["take_wood", "take_stone", None]
        p["turns_taken"] = 2
        if current != "keep":
            t["event"] = current
            t["event_deck"][0] = current
        if next_event is not None:
            t["event_deck"].remove(next_event) if next_event in t["event_deck"] else None
            t["event_deck"].insert(1, next_event)

    return edit(state, fn)


def finish_turn(state):  # type: ignore[no-untyped-def]
    seat = to_act(state)[0]
    s = play(state, seat, {"kind": "play_card", "card": "gold", "slot": 3})
    s = play(s, seat, {"kind": "move", "councilor": "countryside"})
    return play(s, seat, {"kind": "end_turn"})


@pytest.mark.parametrize(
    ("event", "resource"),
    [
        ("clear_the_old_forest", "wood"),
        ("bountiful_harvest", "grain"),
        ("stone_from_distant_shores", "stone"),
        ("fine_wool_fine_cloth", "cloth"),
    ],
)
def test_reveal_events_give_everyone_a_resource(event: str, resource: str) -> None:
    s = to_last_turn(start(3), next_event=event, current=None)
    for seat in range(3):
        s = clear(s, seat)
    s = finish_turn(s)
    v = view_for(s, None)
    assert v["round"] == 2 and v["event"] == {"id": event, "timing": "reveal"}
    for seat in range(3):
        assert v["players_state"][seat]["resources"][resource] == 1


def test_round_end_passes_statue_and_draws() -> None:
    s = to_last_turn(start(3), current=None)
    evs = events(
        to_last_turn(start(3), current=None), 2, {"kind": "play_card", "card": "gold", "slot": 3}
    )
    assert evs[0]["type"] == "card_played"
    s = finish_turn(s)
    v = view_for(s, 1)
    assert v["round"] == 2 and v["statue"] == 1 and to_act(s) == [1]
    assert all(p["hand_size"] == 3 for p in v["players_state"])
    assert len(v["me"]["hand"]) == 3


def test_deck_reshuffled_after_round_three() -> None:
    def round3(t: dict[str, Any]) -> None:
        t["round"] = 3
        for p in t["ps"]:
            p["deck"] = []
            p["played"] = [
                "take_grain",
                "take_ring",
                "move1",
                "hire_discount",
                "town_action",
                "gold",
            ]

    s = to_last_turn(edit(start(2), round3), current=None)

    def fix_last(t: dict[str, Any]) -> None:
        seat = t["turn"]["seat"]
        t["ps"][seat]["played"].remove("gold")
        t["ps"][seat]["played"].append("take_cloth")
        t["ps"][seat]["slots"] = ["take_wood", "take_stone", None]

    s = finish_turn(edit(s, fix_last))
    v = view_for(s, 0)
    assert v["round"] == 4
    assert all(p["deck_size"] == 6 and p["hand_size"] == 3 for p in v["players_state"])
    tree = encode_state(s)
    for p in tree["ps"]:
        assert sorted(p["deck"] + p["hand"]) == sorted(data.ACTION_CARDS)
        assert p["played"] == []


def test_full_selection_hand_refills_after_round_three() -> None:
    s = start(2, full_selection=True)

    def round3(t: dict[str, Any]) -> None:
        t["round"] = 3

    s = to_last_turn(edit(s, round3), current=None)
    s = finish_turn(s)
    assert sorted(view_for(s, 0)["me"]["hand"]) == sorted(data.ACTION_CARDS)


def test_full_selection_hand_shrinks_between_rounds() -> None:
    s = start(2, full_selection=True)

    def hand6(t: dict[str, Any]) -> None:
        t["ps"][0]["hand"] = list(data.ACTION_CARDS)

    s = to_last_turn(edit(s, hand6), current=None)

    def keep_six(t: dict[str, Any]) -> None:
        for p in t["ps"]:
            p["hand"] = [
                c for c in data.ACTION_CARDS if c not in ("take_wood", "take_stone", "take_cloth")
            ]
        seat = t["turn"]["seat"]
        t["ps"][seat]["hand"].remove("take_ring")
        t["ps"][seat]["hand"].append("gold") if "gold" not in t["ps"][seat]["hand"] else None

    s = finish_turn(edit(s, keep_six))
    assert view_for(s, 0)["players_state"][0]["hand_size"] in (5, 6)
    assert view_for(s, 0)["players_state"][0]["deck_size"] == 0


def test_great_famine_options_in_turn_order_from_statue() -> None:
    s = to_last_turn(start(3, start_player=1), current="the_great_famine")
    s = give(clear(s, 0), 0, grain=2, ring=1)
    s = give(clear(s, 1), 1, grain=1)
    s = clear(s, 2)
    s = give(s, 2, gold=1)
    s = finish_turn(s)
    v = view_for(s, 1)
    assert v["phase"] == "end_of_round" and v["turn"] is None
    assert to_act(s) == [1]
    assert v["me"]["decision"] == {"kind": "event_option", "event": "the_great_famine"}
    assert legal(s, 1) == [
        {"kind": "event_option", "option": "grain_1", "pay": {"grain": 1}},
        {"kind": "decline"},
    ]
    expect_illegal(
        s, 1, {"kind": "event_option", "option": "grain_2", "pay": {"grain": 1}}, "bad_payment"
    )
    expect_illegal(
        s, 1, {"kind": "event_option", "option": "grain_2", "pay": {"grain": 2}}, "cannot_afford"
    )
    expect_illegal(s, 1, {"kind": "event_option", "option": "grain_1"}, "malformed_move")
    expect_illegal(s, 1, {"kind": "event_option", "option": "ring"}, "cannot_afford")
    expect_illegal(s, 1, {"kind": "event_option", "option": "feast"}, "bad_option")
    expect_illegal(s, 0, {"kind": "decline"}, "not_your_turn")
    s = play(s, 1, {"kind": "event_option", "option": "grain_1", "pay": {"grain": 1}})
    assert to_act(s) == [2]
    assert {"kind": "event_option", "option": "grain_1", "pay": {"gold": 1}} in legal(s, 2)
    s = play(s, 2, {"kind": "decline"})
    assert to_act(s) == [0]
    opts = legal(s, 0)
    assert {"kind": "event_option", "option": "grain_2", "pay": {"grain": 2}} in opts
    assert {"kind": "event_option", "option": "ring"} in opts
    cp0 = player(s, 0)["cp"]
    s = play(s, 0, {"kind": "event_option", "option": "ring"})
    v = view_for(s, None)
    assert v["phase"] == "turns" and v["round"] == 2
    assert v["players_state"][0]["cp"] == cp0 + 5
    assert v["players_state"][1]["cp"] == 3


def test_players_without_options_are_skipped() -> None:
    s = to_last_turn(start(3), current="alms_for_the_poor")
    for seat in range(3):
        s = clear(s, seat)
    s = give(s, 2, ring=1)
    s = finish_turn(s)
    assert to_act(s) == [2]
    assert legal(s, 2) == [{"kind": "event_option", "option": "ring"}, {"kind": "decline"}]
    s = play(s, 2, {"kind": "event_option", "option": "ring"})
    assert view_for(s, None)["players_state"][2]["cp"] == 4
    assert view_for(s, None)["round"] == 2


def test_new_lore_bp_with_toolmaker() -> None:
    s = to_last_turn(start(2), current="new_lore_in_old_books")
    for seat in range(2):
        s = clear(s, seat)
    s = give(s, 0, book=1)
    s = edit(s, lambda t: t["ps"][0].update(advisors=["toolmaker"]))
    bp = player(s, 0)["bp"]
    s = finish_turn(s)
    s = play(s, 0, {"kind": "event_option", "option": "book"})
    assert player(s, 0)["bp"] == bp + 5 + 2


def test_early_winter_reduces_every_bp_gain() -> None:
    def tok(t: dict[str, Any]) -> None:
        t["ps"][0]["favor"] = [1]

    s = set_event(edit(start(3), tok), "an_early_winter")
    s = visit(s, "castle")
    bp = player(s, 0)["bp"]
    s = play(s, 0, {"kind": "cash_favor", "token": 1})
    assert player(s, 0)["bp"] == bp + 3 - 1


def test_no_end_of_round_choice_for_other_events() -> None:
    s = to_last_turn(start(2), current="a_long_summer")
    s = finish_turn(s)
    assert view_for(s, None)["phase"] == "turns"


def test_event_order_over_a_game() -> None:
    s = start(4)
    tree = encode_state(s)
    deck = list(tree["event_deck"])
    assert tree["event"] == deck[0] and len(deck) == 13
