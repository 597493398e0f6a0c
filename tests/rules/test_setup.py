"""Set-up for 1 to 4 players, the 2-player marker exceptions, solo and both variants."""

from __future__ import annotations

import pytest

from app.rules import data, decode_state, encode_state, legal_moves, new_game, to_act, view_for

from .helpers import expect_illegal, play, start


def markers(state) -> dict:  # type: ignore[no-untyped-def]
    return view_for(state, None)["markers"]


@pytest.mark.parametrize("players", [3, 4])
def test_markers_start_unadvanced(players: int) -> None:
    side = "4" if players == 4 else "2-3"
    m = markers(start(players))
    for r in data.RESOURCES:
        assert m["gift"][r]["value"] == data.MARKERS["gift"][side][0]
        assert m["donation"][r]["steps_left"] == len(data.MARKERS["donation"][side]) - 1
    assert m["stone"]["value"] == data.MARKERS["stone"][side][0]
    assert m["bread"]["value"] == data.MARKERS["bread"][side][0]


def test_two_player_exceptions() -> None:
    m = markers(start(2))
    seq = data.MARKERS["gift"]["2-3"]
    for r in data.RESOURCES:
        advanced_gift = r in ("stone", "cloth")
        assert m["gift"][r]["value"] == (seq[1] if advanced_gift else seq[0])
        advanced_don = r in ("wood", "grain")
        assert m["donation"][r]["value"] == (seq[1] if advanced_don else seq[0])
    assert m["stone"]["value"] == data.MARKERS["stone"]["2-3"][1]
    assert m["bread"]["value"] == data.MARKERS["bread"]["2-3"][1]


def test_solo_setup() -> None:
    s = start(1)
    m = markers(s)
    assert m["stone"]["value"] == data.MARKERS["stone"]["4"][0]
    assert m["stone"]["steps_left"] == len(data.MARKERS["stone"]["4"]) - 1
    assert m["bread"]["value"] == data.MARKERS["bread"]["4"][0]
    assert m["gift"]["stone"]["value"] == data.MARKERS["gift"]["2-3"][1]
    assert m["gift"]["wood"]["value"] == data.MARKERS["gift"]["2-3"][0]
    assert m["donation"]["grain"]["value"] == data.MARKERS["donation"]["2-3"][1]
    tree = encode_state(s)
    assert len(tree["event_deck"]) == 13 - 1  # one boxed at the start of round 1
    assert all(e != "an_early_winter" for e in tree["event_deck"])
    assert view_for(s, 0)["victoria"] == {"cp": 0, "titles": []}
    for seed in range(40):
        assert "an_early_winter" not in encode_state(new_game(seed, {"players": 1}))["event_deck"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_common_setup(players: int) -> None:
    s = new_game(11, {"players": players, "start_player": players - 1})
    v = view_for(s, None)
    tree = encode_state(s)
    assert v["phase"] == "turns" and v["round"] == 1
    assert v["statue"] == players - 1 and to_act(s) == [players - 1]
    assert sum(len(x) for x in v["advisors"]["display"].values()) == 8
    assert all(len(x) == 2 for x in v["advisors"]["display"].values())
    assert v["advisors"]["b_left"] == 6
    assert len(tree["boxed_advisors"]) == 8
    assert v["favor"] == {"pile": 12, "discard": 0}
    assert [n["top"] for n in v["nobility"]] == [max(data.TITLE_CARDS[t]) for t in data.TITLES]
    # building start = the set-up card (boxed when round 1 began)
    setup_card = None
    for seed_card in data.EVENT_IDS:
        if seed_card not in tree["event_deck"] and seed_card != tree["event"]:
            setup_card = seed_card
    assert setup_card is not None or players == 1
    for p in v["players_state"]:
        assert p["cp"] == 0
        assert p["hand_size"] == 3 and p["deck_size"] == 6
        assert p["craftsmen_left"] == 4
    # councilors: each next seat one step further clockwise; resource of its countryside spot
    rondel_c = v["rondels"]["countryside"]
    rondel_t = v["rondels"]["town"]
    first = v["councilors"][players - 1]
    for k in range(players):
        seat = (players - 1 + k) % players
        c = v["councilors"][seat]
        assert rondel_c.index(c["countryside"]) == (rondel_c.index(first["countryside"]) + k) % 4
        assert rondel_t.index(c["town"]) == (rondel_t.index(first["town"]) + k) % 4
        res = data.COUNTRYSIDE[c["countryside"]]
        got = v["players_state"][seat]["resources"]
        event_gain = data.EVENT_EFFECT[v["event"]["id"]].get("gain", {})
        assert got[res] == 1 + event_gain.get(res, 0)


def test_setup_card_names_start_locations_and_building_start() -> None:
    for seed in range(12):
        s = new_game(seed, {"players": 2, "start_player": 0})
        tree = encode_state(s)
        # recompute the set-up card: it is the one that was on top before round 1
        s0 = new_game(seed, {"players": 2, "start_player": 0, "building_start": 33})
        assert view_for(s0, None)["players_state"][0]["bp"] == 33
        bp = view_for(s, None)["players_state"][0]["bp"]
        candidates = [e for e in data.EVENT_IDS if data.EVENT_START[e][2] == bp]
        start_c = tree["councilors"][0]["countryside"]
        start_t = tree["councilors"][0]["town"]
        assert any(data.EVENT_START[e][:2] == (start_c, start_t) for e in candidates), (
            seed,
            start_c,
            start_t,
            bp,
        )


def test_full_selection_hand() -> None:
    s = start(3, full_selection=True)
    v = view_for(s, 0)
    assert sorted(v["me"]["hand"]) == sorted(data.ACTION_CARDS)
    assert v["players_state"][0]["deck_size"] == 0


def _random_locations_state(need_place: bool):  # type: ignore[no-untyped-def]
    for seed in range(200):
        s = new_game(seed, {"players": 3, "start_player": 0, "random_locations": True})
        placing = encode_state(s)["decision"]["kind"] == "place_councilor"
        if placing == need_place:
            return s
    raise AssertionError("no seed found")


def test_random_locations_choose_resource() -> None:
    s = _random_locations_state(need_place=False)
    v = view_for(s, 1)
    assert v["phase"] == "setup" and v["round"] == 0
    assert set(v["rondels"]) == {"a", "b"}
    assert sorted(v["rondels"]["a"] + v["rondels"]["b"]) == sorted(data.LOCATIONS)
    assert all(set(c) == {"a", "b"} for c in v["councilors"])
    assert to_act(s) == [0, 1, 2]
    assert v["me"]["decision"] == {"kind": "choose_resource"}
    assert [m.args["resource"] for m in legal_moves(s, 2)] == list(data.RESOURCES)
    expect_illegal(s, 1, {"kind": "choose_resource", "resource": "gold"}, "bad_resource")
    expect_illegal(s, 1, {"kind": "play_card", "card": "gold", "slot": 1}, "decision_pending")
    s = play(s, 1, {"kind": "choose_resource", "resource": "cloth"})
    assert to_act(s) == [0, 2]
    expect_illegal(s, 1, {"kind": "choose_resource", "resource": "cloth"}, "not_your_turn")
    s = play(s, 2, {"kind": "choose_resource", "resource": "wood"})
    s = play(s, 0, {"kind": "choose_resource", "resource": "stone"})
    v = view_for(s, None)
    assert v["phase"] == "turns" and v["round"] == 1 and to_act(s) == [0]
    gain = data.EVENT_EFFECT[v["event"]["id"]].get("gain", {})
    assert v["players_state"][1]["resources"]["cloth"] == 1 + gain.get("cloth", 0)


def test_random_locations_place_councilor() -> None:
    s = _random_locations_state(need_place=True)
    tree = encode_state(s)
    dec = tree["decision"]
    assert to_act(s) == [0]
    assert view_for(s, 0)["me"]["decision"] == {"kind": "place_councilor"}
    assert view_for(s, 1)["me"]["decision"] is None
    other = dec["councilor"]
    wrong = next(loc for loc in data.LOCATIONS if loc not in tree["rondels"][other])
    expect_illegal(s, 0, {"kind": "place_councilor", "location": wrong}, "bad_location")
    target = tree["rondels"][other][2]
    s = play(s, 0, {"kind": "place_councilor", "location": target})
    v = view_for(s, None)
    assert v["councilors"][0][other] == target
    assert v["councilors"][1][other] == tree["rondels"][other][3]
    assert to_act(s) == [0, 1, 2]
    moves = legal_moves(decode_state(encode_state(s)), 0)
    assert {m.kind for m in moves} == {"choose_resource"}


def test_random_locations_start_player_chooses_which_councilor_moves() -> None:
    s = _random_locations_state(need_place=True)
    tree = encode_state(s)
    dec = tree["decision"]
    town_named, country_named = dec["from"]
    other = dec["councilor"]
    same = next(k for k in tree["rondels"] if k != other)
    moves = legal_moves(s, 0)
    assert len(moves) == 8
    assert sum(1 for m in moves if "from" in m.args) == 4
    # default: the councilor on the town-named location moves, the countryside one stays
    s1 = play(s, 0, {"kind": "place_councilor", "location": tree["rondels"][other][0]})
    c1 = view_for(s1, None)["councilors"][0]
    assert c1[same] == country_named and c1[other] == tree["rondels"][other][0]
    # alternative: the countryside-named councilor moves, the town-named one stays
    loc = tree["rondels"][other][1]
    s2 = play(s, 0, {"kind": "place_councilor", "location": loc, "from": country_named})
    c = view_for(s2, None)["councilors"]
    assert c[0][same] == town_named and c[0][other] == loc
    rondel = tree["rondels"][same]
    assert c[1][same] == rondel[(rondel.index(town_named) + 1) % 4]
    expect_illegal(
        s, 0, {"kind": "place_councilor", "location": loc, "from": "nowhere"}, "bad_location"
    )
