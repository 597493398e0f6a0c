"""Where each point came from: every player's CP and BP by source sum to the tracks after every
move of seeded complete games (solo too, with undos), every track change is booked to the source
its reason names, and stored games from before the breakdown still decode and add up."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import (
    GameState,
    apply_move,
    decode_state,
    encode_move,
    encode_state,
    legal_moves,
    new_game,
    outcome,
    to_act,
    undo_points,
    view_for,
)
from app.rules.breakdown import SOURCES, source_of

from .helpers import advisors, clear, edit, give, hand, play, set_event, start


def check_sums(state: GameState) -> None:
    """Every player's breakdown sums to their tracks; the outcome's to the final tracks."""
    view = view_for(state, None)
    for p in view["players_state"]:
        for track in ("cp", "bp"):
            per: dict[str, int] = dict(p["points"][track])
            assert list(per) == list(SOURCES)
            assert sum(per.values()) == p[track], (track, per, p[track])
            assert per["paid"] <= 0
            assert all(n >= 0 for s, n in per.items() if s != "paid"), per
            assert per["leftovers"] == 0
            assert per["unrecorded"] == 0
    out = outcome(state)
    if out is None:
        return
    assert view["outcome"] == out
    for op in out["players"]:
        assert sum(op["points"]["cp"].values()) == op["cp"]
        assert sum(op["points"]["bp"].values()) == op["bp"]
        assert op["points"]["cp"]["leftovers"] == op["leftover"]["to_cp"]
        assert op["points"]["bp"]["leftovers"] == op["leftover"]["to_bp"]


def check_booked(before: GameState, after: GameState, events: list[dict[str, Any]]) -> None:
    """Each source changed by exactly what the move's track events booked to it."""
    want: dict[tuple[int, str, str], int] = {}
    for ev in events:
        if ev["type"] in ("cp_gained", "cp_paid", "bp_gained"):
            track = ev["type"][:2]
            source = "paid" if ev["type"] == "cp_paid" else source_of(ev["why"])
            sign = -1 if ev["type"] == "cp_paid" else 1
            key = (ev["seat"], track, source)
            want[key] = want.get(key, 0) + sign * ev["amount"]
    b = view_for(before, None)["players_state"]
    a = view_for(after, None)["players_state"]
    for seat in range(after.players):
        for track in ("cp", "bp"):
            for source in SOURCES:
                delta = a[seat]["points"][track][source] - b[seat]["points"][track][source]  # type: ignore[literal-required]
                assert delta == want.get((seat, track, source), 0), (seat, track, source)


def playout(seed: int, options: dict[str, Any], undo_rate: float = 0.0) -> tuple[GameState, int]:
    rng = random.Random(seed)
    state = new_game(seed, options)
    check_sums(state)
    undos = 0
    while to_act(state):
        seats = to_act(state)
        seat = seats[int(rng.random() * len(seats))]
        points = undo_points(state, seat)
        if points and rng.random() < undo_rate:
            move: dict[str, Any] = {"kind": "undo", "to": points[-1]["to"]}
            undos += 1
        else:
            legal = legal_moves(state, seat)
            move = encode_move(legal[int(rng.random() * len(legal))])
        frozen = encode_state(state)
        tr = apply_move(state, seat, move)
        assert encode_state(state) == frozen  # the earlier position's breakdown is untouched
        if move["kind"] != "undo":
            check_booked(state, tr.state, tr.events)
        state = tr.state
        check_sums(state)
    assert outcome(state) is not None
    return state, undos


@pytest.mark.parametrize(
    ("players", "seed", "extra"),
    [
        (1, 11, {}),
        (1, 12, {"random_locations": True}),
        (2, 21, {}),
        (2, 22, {"building_start": 3}),
        (3, 31, {"full_selection": True}),
        (4, 41, {"random_locations": True, "full_selection": True}),
    ],
)
def test_breakdown_sums_to_the_tracks_after_every_move(
    players: int, seed: int, extra: dict[str, Any]
) -> None:
    state, _ = playout(seed, {"players": players, **extra})
    final = view_for(state, None)
    # the game really scored from several sources
    used = {s for p in final["players_state"] for s in SOURCES if p["points"]["cp"][s]}  # type: ignore[literal-required]
    assert len(used) >= 2


@pytest.mark.parametrize(("players", "seed"), [(1, 5), (2, 6), (3, 7)])
def test_breakdown_sums_after_undos(players: int, seed: int) -> None:
    _, undos = playout(seed, {"players": players}, undo_rate=0.3)
    assert undos > 0


def test_start_value_is_its_own_source() -> None:
    state = start(2, building_start=4)
    for p in view_for(state, 0)["players_state"]:
        assert p["points"]["bp"]["start"] == 4
        assert p["bp"] == 4


def test_landlord_pays_cp_away_for_bp() -> None:
    s = set_event(hand(start(3), 0, ["take_ring", "take_wood", "take_stone"]), None)
    s = play(s, 0, {"kind": "play_card", "card": "take_ring", "slot": 1})
    s = play(s, 0, {"kind": "move", "councilor": "town"})
    s = play(s, 0, {"kind": "end_visit"})
    s = advisors(clear(s, 0), 0, ["landlord"])
    s = give(s, 0, cloth=1, cp=5)

    def titles_gave_it(t: dict[str, Any]) -> None:
        t["ps"][0]["points"]["cp"] = {"titles": 5}

    s = edit(s, titles_gave_it)
    after = play(s, 0, {"kind": "use_advisor", "advisor": "landlord", "pay": {"cloth": 1}})
    mine = view_for(after, 0)["players_state"][0]
    assert mine["cp"] == 4
    assert mine["points"]["cp"]["paid"] == -1
    assert mine["points"]["cp"]["titles"] == 5
    assert mine["points"]["bp"]["advisors"] == 5
    check_sums(after)


def test_a_stored_game_without_the_breakdown_decodes_and_adds_up() -> None:
    state = start(2, building_start=2, seed=3)
    rng = random.Random(3)
    for _ in range(40):  # some way into the game, then forget the breakdown as old games lack it
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        state = apply_move(state, seat, encode_move(legal[int(rng.random() * len(legal))])).state
    tree = encode_state(state)
    for p in tree["ps"]:
        del p["points"]
    old = decode_state(tree)
    view = view_for(old, None)
    for p in view["players_state"]:
        assert p["points"]["cp"]["unrecorded"] == p["cp"]
        assert p["points"]["bp"]["unrecorded"] == p["bp"]
    state = old
    while to_act(state):
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        state = apply_move(state, seat, encode_move(legal[int(rng.random() * len(legal))])).state
        for p in view_for(state, None)["players_state"]:
            assert sum(p["points"]["cp"].values()) == p["cp"]
            assert sum(p["points"]["bp"].values()) == p["bp"]
    out = outcome(state)
    assert out is not None
    for op in out["players"]:
        assert sum(op["points"]["cp"].values()) == op["cp"]
        assert sum(op["points"]["bp"].values()) == op["bp"]


def test_every_reason_the_engine_gives_has_a_source() -> None:
    for why in ("title", "craftsman", "advisor", "mayoress", "favor", "event", "deliver_wood"):
        assert source_of(why) in SOURCES
    assert source_of("bailiff") == "advisors"
    with pytest.raises(ValueError):
        source_of("harvest")
