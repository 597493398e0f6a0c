"""Since you looked: board changes between two views of a seat and the summary of missed moves."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import (
    GameState,
    LogEntry,
    View,
    ViewMismatchError,
    apply_move,
    changes_between,
    encode_move,
    encode_state,
    events_for,
    legal_moves,
    new_game,
    summarize,
    to_act,
    undo_points,
    view_for,
)
from tests.conftest import examples

from .test_undo_secrets import SEED, check, dump, secrets

GOLDEN = Path(__file__).resolve().parent / "golden"


def golden(name: str) -> dict[str, Any]:
    blob: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return blob


class Table:
    """A golden game played move by move, keeping every state and the raw events of each move."""

    def __init__(self, name: str) -> None:
        self.record = golden(name)
        self.states: list[GameState] = [new_game(self.record["seed"], self.record["options"])]
        self.raw: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = []

    def advance(self, count: int) -> None:
        for entry in self.record["moves"][len(self.raw) : len(self.raw) + count]:
            self.push(entry["seat"], entry["move"])

    def push(self, seat: int, move: dict[str, Any]) -> None:
        tr = apply_move(self.states[-1], seat, move)
        self.states.append(tr.state)
        self.raw.append((seat, move, tr.events))

    def until(self, pred: Any) -> int:
        """Play golden moves until ``pred(seat, move)``; returns the index of that move."""
        for i, entry in enumerate(self.record["moves"]):
            if i < len(self.raw):
                continue
            if pred(entry["seat"], entry["move"]):
                return i
            self.push(entry["seat"], entry["move"])
        raise AssertionError("no such move in the record")

    def entries(self, seat: int | None, start: int, end: int | None = None) -> list[LogEntry]:
        """Log entries ``start+1 .. end`` (versions) as ``seat`` receives them."""
        return [
            {"version": v + 1, "seat": s, "move": m, "events": events_for(evs, seat)}
            for v, (s, m, evs) in enumerate(self.raw)
            if start <= v < (len(self.raw) if end is None else end)
        ]

    def view(self, version: int, seat: int | None) -> View:
        return view_for(self.states[version], seat)


def by_key(changes: list[Any]) -> dict[str, Any]:
    return {c["key"]: c for c in changes}


# ---------------------------------------------------------------------------------------------
# Scripted positions.


def test_a_turn_delivering_stone_and_building_shows_on_the_board_and_in_the_summary() -> None:
    table = Table("two_players")
    table.advance(7)  # seat 0: town action to the construction site, stone, move, harvest, hut
    changes = by_key(changes_between(table.view(0, 1), table.view(7, 1)))
    assert changes["councilor:0:countryside"] == {
        "kind": "councilor_moved",
        "key": "councilor:0:countryside",
        "seat": 0,
        "rondel": "countryside",
        "before": "quarry",
        "after": "weaving_mill",
    }
    assert changes["hut:weaving_mill:2"]["before"] is None
    assert changes["hut:weaving_mill:2"]["after"] == 0
    assert changes["marker:stone"]["after"] == {"value": 3, "steps_left": 0, "removed": False}
    assert (changes["player:0:cp"]["before"], changes["player:0:cp"]["after"]) == (0, 5)
    assert (changes["player:0:bp"]["before"], changes["player:0:bp"]["after"]) == (35, 40)
    assert changes["player:0:slot:1"]["after"] == "town_action"
    assert changes["player:0:stone"]["after"] == 0
    assert (changes["turn:seat"]["before"], changes["turn:seat"]["after"]) == (0, 1)
    assert "player:1:cp" not in changes  # seat 1 did not move
    assert not any(key.startswith("councilor:1:") for key in changes)

    [bo] = summarize(table.entries(1, 0), 1)
    assert (bo["seat"], bo["victoria"], bo["cp"], bo["bp"]) == (0, False, 5, 5)
    kinds = [item["kind"] for item in bo["items"]]
    assert kinds == [
        "card_played",
        "card_action",
        "visited",
        "visit_action",
        "councilor_moved",
        "visited",
        "harvested",
        "craftsman_hired",
    ]
    assert bo["items"][0] == {"kind": "card_played", "card": "town_action", "slot": 1}
    assert bo["items"][3] == {
        "kind": "visit_action",
        "action": "deliver_stone",
        "location": "construction_site",
        "paid": {"stone": 1},
        "gained": {},
        "cp": 4,
        "bp": 5,
    }
    assert bo["items"][6] == {
        "kind": "harvested",
        "location": "weaving_mill",
        "resource": 1,
        "bread": 0,
        "paid": {},
        "gained": {"cloth": 1},
        "cp": 0,
        "bp": 0,
    }
    assert bo["items"][7] == {  # the hut's cost, then its CP
        "kind": "craftsman_hired",
        "location": "weaving_mill",
        "hut": 2,
        "paid": {"cloth": 1, "grain": 1},
        "gained": {},
        "cp": 1,
        "bp": 0,
    }
    # the acting seat's own view of its moves yields no summary for itself
    assert summarize(table.entries(0, 0), 0) == []
    # a spectator sees seat 0's summary too
    assert summarize(table.entries(None, 0), None) == [bo]


def test_an_advisor_hired_leaves_the_display_and_joins_the_player() -> None:
    table = Table("three_players")
    i = table.until(lambda s, m: m["kind"] == "hire_advisor")
    seat, move = table.record["moves"][i]["seat"], table.record["moves"][i]["move"]
    viewer = (seat + 1) % 3
    table.advance(1)
    changes = changes_between(table.view(i, viewer), table.view(i + 1, viewer))
    keyed = by_key(changes)
    adv = move["advisor"]
    hired = keyed[f"player:{seat}:advisor:{adv}"]
    assert (hired["kind"], hired["before"], hired["after"]) == ("advisor_hired", False, True)
    gone = [c for c in changes if c["kind"] == "advisor_gone"]
    assert [c["advisor"] for c in gone] == [adv]
    assert gone[0]["key"] == f"display:{gone[0]['location']}:{adv}"
    revealed = [ev for ev in table.raw[-1][2] if ev["type"] == "advisor_revealed"]
    shown = [c for c in changes if c["kind"] == "advisor_shown"]
    assert [c["advisor"] for c in shown] == [ev["advisor"] for ev in revealed]
    if revealed:
        assert keyed["advisors:b_stack"]["after"]["left"] == (
            keyed["advisors:b_stack"]["before"]["left"] - 1
        )
    [summary] = summarize(table.entries(viewer, i), viewer)
    assert summary["seat"] == seat
    [item] = summary["items"]
    assert (item["kind"], item["advisor"], item["location"]) == (
        "advisor_hired",
        adv,
        gone[0]["location"],
    )
    assert item["paid"] == move["pay"]
    cp = sum(ev["amount"] for ev in table.raw[i][2] if ev["type"] == "cp_gained")
    assert item["cp"] == summary["cp"] == cp > 0


def test_a_donation_shows_the_kept_token_but_never_the_drawn_ones() -> None:
    table = Table("two_players")
    i = table.until(lambda s, m: m["kind"] == "keep_favor")
    seat = table.record["moves"][i]["seat"]
    viewer = 1 - seat
    table.advance(1)
    start = i - 1  # the donation and the keep
    drawn = next(ev for ev in table.raw[start][2] if ev["type"] == "favor_drawn")
    kept = next(ev for ev in table.raw[i][2] if ev["type"] == "favor_kept")
    others = [t for t in drawn["tokens"] if t != kept["token"]]
    changes = changes_between(table.view(start, viewer), table.view(i + 1, viewer))
    keyed = by_key(changes)
    token = kept["token"]["id"]
    taken = keyed[f"player:{seat}:favor:{token}"]
    assert (taken["kind"], taken["before"], taken["after"]) == (
        "favor_token_taken",
        None,
        kept["token"],
    )
    assert keyed["favor:pile"]["after"]["discard"] == keyed["favor:pile"]["before"]["discard"] + 2
    [summary] = summarize(table.entries(viewer, start, i + 1), viewer)
    kinds = [item["kind"] for item in summary["items"]]
    assert kinds == ["visit_action", "favor_kept"]
    assert summary["items"][0]["action"] == "cathedral_donation"
    assert summary["items"][1] == {"kind": "favor_kept", "token": kept["token"]}
    text = dump([changes, summary])
    for other in others:
        assert dump(other) not in text
    # even handed the raw (unredacted) events, the summary reads no private event
    raw: list[LogEntry] = [
        {"version": 1, "seat": seat, "move": {}, "events": cast(Any, table.raw[start][2])}
    ]
    assert "tokens" not in dump(summarize(raw, viewer))


def test_moves_taken_back_are_removed_from_the_summary() -> None:
    table = Table("two_players")
    table.advance(3)  # town action, construction site, deliver stone: +4 CP +5 BP
    table.push(0, {"kind": "undo", "to": 2})
    [bo] = summarize(table.entries(1, 0), 1)
    assert [item["kind"] for item in bo["items"]] == [
        "card_played",
        "card_action",
        "visited",
        "took_back",
    ]
    assert bo["items"][-1] == {"kind": "took_back", "count": 1}
    assert (bo["cp"], bo["bp"]) == (0, 0)
    changes = by_key(changes_between(table.view(0, 1), table.view(4, 1)))
    assert "player:0:cp" not in changes
    assert "marker:stone" not in changes
    # a second undo takes back the moves before it, not the first undo
    table.push(0, {"kind": "undo", "to": 0})
    [bo] = summarize(table.entries(1, 0), 1)
    assert [item["kind"] for item in bo["items"]] == ["took_back", "took_back"]
    assert changes_between(table.view(0, 1), table.view(5, 1)) == []


def test_a_visit_action_names_its_location_only_when_the_visit_was_seen_opening() -> None:
    table = Table("two_players")
    table.advance(2)  # town action card, to the construction site: the visit is open
    table.push(0, {"kind": "move", "councilor": "countryside"})  # opens another visit
    table.push(0, {"kind": "undo", "to": 2})  # the construction site's visit is open again
    table.push(0, table.record["moves"][2]["move"])  # deliver stone there
    [bo] = summarize(table.entries(1, 0), 1)
    assert [item["kind"] for item in bo["items"]] == [
        "card_played",
        "card_action",
        "visited",
        "took_back",
        "visit_action",
    ]
    assert bo["items"][-1]["location"] == "construction_site"
    [bo] = summarize(table.entries(1, 2), 1)  # the visit opened before these entries
    assert [item["kind"] for item in bo["items"]] == ["took_back", "visit_action"]
    assert "location" not in bo["items"][-1]
    assert bo["items"][-1]["action"] == "deliver_stone"


def test_victoria_gets_her_own_summary_in_solo() -> None:
    table = Table("solo")
    i = table.until(lambda s, m: table.states[-1].tree["round"] >= 3)  # she acts from round 2
    [vic] = summarize(table.entries(0, 0, i), 0)
    assert (vic["seat"], vic["victoria"]) == (None, True)
    delivered = [ev for _, _, evs in table.raw for ev in evs if ev["type"] == "victoria_delivered"]
    assert vic["items"][0] == {
        "kind": "victoria_delivered",
        "round": delivered[0]["round"],
        "cp": delivered[0]["cp"],
    }
    before, after = table.view(0, 0), table.view(i, 0)
    assert before["victoria"] is not None and after["victoria"] is not None
    assert vic["cp"] == after["victoria"]["cp"] - before["victoria"]["cp"] > 0
    assert by_key(changes_between(before, after))["victoria:cp"]["after"] == after["victoria"]["cp"]


def test_views_of_different_seats_are_refused() -> None:
    state = new_game(1, {"players": 2, "start_player": 0})
    with pytest.raises(ViewMismatchError):
        changes_between(view_for(state, 0), view_for(state, 1))
    with pytest.raises(ViewMismatchError):
        changes_between(view_for(state, None), view_for(state, 0))
    other = new_game(1, {"players": 3, "start_player": 0})
    with pytest.raises(ViewMismatchError):
        changes_between(view_for(state, 0), view_for(other, 0))


def test_a_view_compared_with_itself_has_no_changes_and_is_left_untouched() -> None:
    table = Table("four_players_both_variants")
    table.advance(len(table.record["moves"]))
    for version in range(0, len(table.states), 7):
        for seat in (None, 0, 1, 2, 3):
            view = table.view(version, seat)
            kept = copy.deepcopy(view)
            assert changes_between(view, copy.deepcopy(view)) == []
            assert view == kept
    # the final step reports the finished game
    finished = by_key(changes_between(table.view(len(table.raw) - 1, 2), table.view(-1, 2)))
    assert finished["phase"]["after"] == "finished"
    assert finished["outcome"]["before"] is None


# ---------------------------------------------------------------------------------------------
# Random games with undos: nothing but what the seat was sent; the tracks add up.


def leaves(value: Any) -> list[str]:
    """The dumps of every string and list inside ``value`` (the copied parts of a change)."""
    if isinstance(value, str | list):
        out = [dump(value)]
        for child in value if isinstance(value, list) else []:
            out.extend(leaves(child))
        return out
    if isinstance(value, dict):
        return [x for child in value.values() for x in leaves(child)]
    return []


_SECTION_KEYS = {
    "councilors": ("councilor:",),
    "huts": ("hut:",),
    "markers": ("marker:",),
    "advisors": ("display:", "advisors:b_stack"),
    "nobility": ("nobility:",),
    "favor": ("favor:pile",),
    "victoria": ("victoria:",),
    "me": ("me:",),
}
_PLAYER_KEYS = {
    "resources": ":",
    "goods": ":",
    "craftsmen": None,  # shown by the huts
    "advisors": ":advisor:",
    "titles": ":title:",
    "favor_tokens": ":favor:",
    "slots": ":slot:",
}


def expected_prefixes(before: View, after: View) -> list[tuple[str, ...]]:
    """For every part of the view that differs, the keys a change of it may have."""
    out: list[tuple[str, ...]] = []
    for section, value in after.items():
        if before[section] == value:  # type: ignore[literal-required]
            continue
        if section == "players_state":
            for b, a in zip(before["players_state"], after["players_state"], strict=True):
                for name, field in a.items():
                    if b[name] == field:  # type: ignore[literal-required]
                        continue
                    seat = a["seat"]
                    if name not in _PLAYER_KEYS:
                        out.append((f"player:{seat}:{name}",))
                    elif _PLAYER_KEYS[name] is not None:
                        out.append((f"player:{seat}{_PLAYER_KEYS[name]}",))
                    else:
                        out.append(("hut:",))
        else:
            out.append(_SECTION_KEYS.get(section, (section,)))
    return out


Step = tuple[GameState, int | None, list[Any]]  # state, the seat that moved, raw events


def random_game(seed: int, options: dict[str, Any], rate: float) -> list[Step]:
    """Every state of a random game with undos (at ``rate``), who moved and the raw events."""
    rng = random.Random(seed)
    state = new_game(seed, options)
    out: list[Step] = [(state, None, [])]
    while to_act(state):
        seat = to_act(state)[0]
        points = undo_points(state, seat)
        if points and rng.random() < rate:
            move: dict[str, Any] = {"kind": "undo", "to": rng.choice(points)["to"]}
        else:
            move = encode_move(rng.choice(legal_moves(state, seat)))
        tr = apply_move(state, seat, move)
        state = tr.state
        out.append((state, seat, tr.events))
    return out


def entries_of(steps: list[Step], seat: int | None, a: int, b: int) -> list[LogEntry]:
    """The log entries of versions ``a+1 .. b`` as ``seat`` receives them."""
    return [
        {"version": v, "seat": steps[v][1], "move": {}, "events": events_for(steps[v][2], seat)}
        for v in range(a + 1, b + 1)
    ]


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    options=st.sampled_from(
        [
            {"players": 1},
            {"players": 2},
            {"players": 3, "full_selection": True},
            {"players": 4, "random_locations": True},
        ]
    ),
)
def test_changes_and_summaries_say_nothing_a_seat_was_not_sent(
    seed: int, options: dict[str, Any]
) -> None:
    steps = random_game(seed, options, 0.25 if seed % 2 else 0.0)
    trees = [encode_state(state) for state, _, _ in steps]
    public = [dump(view_for(state, None)) for state, _, _ in steps]
    rng = random.Random(seed)
    for seat in [*range(options["players"]), None]:
        forbidden = secrets(trees, -1 if seat is None else seat, public)
        assert forbidden, "the canary needs secrets to look for"
        views = [view_for(state, seat) for state, _, _ in steps]
        for _ in range(40):
            a = rng.randrange(len(steps))
            b = min(len(steps) - 1, a + rng.randrange(1, 40))
            changes = changes_between(views[a], views[b])
            assert (changes == []) == (views[a] == views[b])
            keys = [c["key"] for c in changes]
            for prefixes in expected_prefixes(views[a], views[b]):
                assert any(k.startswith(prefixes) for k in keys), (prefixes, keys)
            assert changes_between(views[b], views[b]) == []
            check(-1 if seat is None else seat, changes, forbidden)
            seen_before, seen_after = dump(views[a]), dump(views[b])
            for change in changes:
                assert all(x in seen_before for x in leaves(change["before"])), change
                assert all(x in seen_after for x in leaves(change["after"])), change
            entries = entries_of(steps, seat, a, b)
            summary = summarize(entries, seat)
            check(-1 if seat is None else seat, summary, forbidden)
            sent = dump([e["events"] for e in entries])
            for player in summary:
                assert player["seat"] != seat or seat is None
                for item in player["items"]:
                    for key, value in item.items():
                        if key not in ("paid", "gained", "cp", "bp", "kind"):
                            assert dump(value) in sent, (key, value)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_summary_track_steps_match_the_views_over_a_whole_game_with_undos(players: int) -> None:
    steps = random_game(SEED + players, {"players": players}, 0.3)
    seat = 0
    first, last = view_for(steps[0][0], seat), view_for(steps[-1][0], seat)
    entries = entries_of(steps, seat, 0, len(steps) - 1)
    summary = summarize(entries, seat)
    assert summary, "the other seats acted"
    for player in summary:
        if player["victoria"]:
            assert first["victoria"] is not None and last["victoria"] is not None
            assert player["cp"] == last["victoria"]["cp"] - first["victoria"]["cp"]
            continue
        s = player["seat"]
        assert s is not None and s != seat
        before, after = first["players_state"][s], last["players_state"][s]
        assert (player["cp"], player["bp"]) == (
            after["cp"] - before["cp"],
            after["bp"] - before["bp"],
        )
    took_back = [i for p in summary for i in p["items"] if i["kind"] == "took_back"]
    if players > 1:
        assert took_back, "the game had undos by other seats"


def test_the_canary_sees_a_planted_hand_in_the_changes() -> None:
    steps = random_game(SEED, {"players": 2}, 0.0)
    trees = [encode_state(state) for state, _, _ in steps]
    public = [dump(view_for(state, None)) for state, _, _ in steps]
    forbidden = secrets(trees, 0, public)
    before, after = view_for(steps[10][0], 0), view_for(steps[12][0], 0)
    check(0, changes_between(before, after), forbidden)
    leaky = copy.deepcopy(after)
    hidden = next(t["ps"][1]["hand"] for t in trees[12:] if len(t["ps"][1]["hand"]) >= 2)
    leaky["players_state"][1]["slots"]["1"] = hidden  # a view that would leak seat 1's hand
    with pytest.raises(AssertionError):
        check(0, changes_between(before, leaky), forbidden)
