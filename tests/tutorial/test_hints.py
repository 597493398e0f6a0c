"""The hint function over real engine states: a newcomer who follows the hints plays a whole
game and meets every kind of decision (deliveries, titles, the market's books, an end-of-round
event's offer), each with words of its own; every step is reached; a player who does something
else gets a hint for the state they made."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app import rules
from app.bots.policy import choose_move, position_seed
from app.tutorial.hints import Hint, Step, hint_for
from app.tutorial.service import GUIDED_SEED

OPTIONS = {"players": 3, "start_player": 0, "building_start": 35}


def wire(state: rules.GameState, seat: int) -> list[dict[str, Any]]:
    return [dict(rules.encode_move(m)) for m in rules.legal_moves(state, seat)]


def hint(state: rules.GameState, seat: int = 0) -> Hint:
    return hint_for(dict(rules.view_for(state, seat)), wire(state, seat))


def bots_move(state: rules.GameState, rng: random.Random) -> rules.GameState:
    """Seats 1 and 2 play any legal move until seat 0 is to act (or the game is over)."""
    while state.phase != "finished" and 0 not in rules.to_act(state):
        seat = rules.to_act(state)[0]
        state = rules.apply_move(state, seat, rng.choice(rules.legal_moves(state, seat))).state
    return state


def follow(seed: int) -> list[Hint]:
    """Seat 0 plays the move each hint suggests until the hints let go; every hint seen."""
    rng = random.Random(seed)
    state = rules.new_game(seed, OPTIONS)
    seen: list[Hint] = []
    for _ in range(2000):
        for other in (1, 2):  # the other seats are told to wait (or that the round ends)
            if other not in rules.to_act(state):
                assert hint(state, other).step in (Step.WAIT, Step.ROUND_END, Step.DONE)
        h = hint(state)
        seen.append(h)
        if h.step is Step.DONE:
            return seen
        if h.step in (Step.WAIT, Step.ROUND_END) and 0 not in rules.to_act(state):
            assert h.move is None
            state = bots_move(state, rng)
            continue
        assert h.move is not None, h
        assert h.move in wire(state, 0), "the suggested move is a legal one"
        assert h.key.startswith("guide.")
        state = rules.apply_move(state, 0, h.move).state
    raise AssertionError("the hints never let go")


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_following_the_hints_plays_a_whole_game(seed: int) -> None:
    seen = follow(seed)
    steps = [h.step for h in seen]
    assert steps[0] is Step.PLAY_CARD and seen[0].key == "guide.play_card_first"
    assert steps[-1] is Step.DONE
    assert steps.count(Step.PLAY_CARD) == 18, "one card a turn, three turns, six rounds"
    assert steps.count(Step.END_TURN) == 18
    assert Step.MOVE in steps and Step.ROUND_END in steps
    ends = [h.key for h in seen if h.step is Step.END_TURN]
    assert ends.count("guide.end_turn_last") == 6 and ends[-1] == "guide.end_turn_last"
    # a hint of a turn names that turn
    assert [h.turn for h in seen if h.step is Step.PLAY_CARD] == [1, 2, 3] * 6
    # the long words of the first card once; each later round starts with its own
    keys = [h.key for h in seen if h.step is Step.PLAY_CARD]
    assert keys.count("guide.play_card_first") == 1 and keys.count("guide.play_card_round") == 5


# The kinds of decision past the first steps, by the words of their hints.
NEW_KINDS = {
    "delivery": tuple(f"guide.visit.deliver_{x}" for x in ("stone", "bread", "wood")),
    "books": ("guide.visit.market_books",),
    "title": ("guide.bonus.raise_title",),
    "event": ("guide.event_option",),
}  # fmt: skip


def kinds(seen: list[Hint]) -> set[str]:
    keys = {h.key for h in seen}
    return {kind for kind, words in NEW_KINDS.items() if keys & set(words)}


def test_every_game_leads_to_deliveries_and_titles_and_most_to_the_markets_books() -> None:
    games = [kinds(follow(seed)) for seed in range(1, 31)]
    assert all({"delivery", "title"} <= k for k in games), games
    assert sum("books" in k for k in games) >= 27, games
    # an end-of-round event comes up only when the deck deals one: then its offer is taken
    assert sum("event" in k for k in games) >= 20, games


def greedy_bots(state: rules.GameState) -> rules.GameState:
    """Seats 1 and 2 play as the guided table's bots do (greedy, seeded by what they see)."""
    while state.phase != "finished" and 0 not in rules.to_act(state):
        seat = rules.to_act(state)[0]
        view = dict(rules.view_for(state, seat))
        move = choose_move(view, wire(state, seat), "greedy", position_seed(view), None)
        state = rules.apply_move(state, seat, move).state
    return state


def test_the_guided_deal_meets_every_kind_of_decision_within_two_rounds() -> None:
    """The guided table's own deal with its own bots: the same game every time, in which each
    new kind of decision comes up by the end of round 2, each explained by its own hint."""
    state = rules.new_game(GUIDED_SEED, OPTIONS)
    first: dict[str, int] = {}
    for _ in range(2000):
        h = hint(state)
        rnd = int(rules.view_for(state, 0)["round"])
        for kind, words in NEW_KINDS.items():
            if h.key in words:
                first.setdefault(kind, rnd)
                assert h.move is not None and h.targets, h
        if h.step is Step.DONE:
            break
        state = greedy_bots(state) if h.move is None else rules.apply_move(state, 0, h.move).state
    assert set(first) == set(NEW_KINDS) and max(first.values()) <= 2, first


def test_every_step_is_reached_over_some_games() -> None:
    seen: set[Step] = set()
    for seed in range(1, 9):
        seen |= {h.step for h in follow(seed)}
    wanted = set(Step) - {Step.FREE}
    assert wanted - seen == set(), f"never reached: {wanted - seen}"


def first(state: rules.GameState, step: Step, seed: int) -> rules.GameState:
    """Follow the hints until one of `step` is shown."""
    rng = random.Random(seed)
    for _ in range(2000):
        h = hint(state)
        if h.step is step:
            return state
        if h.move is None:
            state = bots_move(state, rng)
        else:
            state = rules.apply_move(state, 0, h.move).state
    raise AssertionError(f"no {step}")


def test_another_card_than_suggested_gets_hints_for_that_card() -> None:
    state = first(rules.new_game(7, OPTIONS), Step.PLAY_CARD, 7)
    h = hint(state)
    other = next(
        m for m in wire(state, 0)
        if m["kind"] == "play_card" and m["card"] != h.params["card"] and m["slot"] == 3
    )  # fmt: skip
    after = rules.apply_move(state, 0, other).state
    nxt = hint(after)
    assert nxt.step in (Step.CARD_ACTION, Step.MOVE)
    assert nxt.params.get("card", other["card"]) == other["card"]
    if nxt.step is Step.MOVE:
        assert nxt.params["steps"] == 3, "the slot chosen, not the one suggested"


def test_the_other_councilor_than_suggested_gets_the_visit_it_reached() -> None:
    state = rules.new_game(11, OPTIONS)
    state = first(state, Step.MOVE, 11)
    h = hint(state)
    assert h.move is not None
    other = next(m for m in wire(state, 0) if m["kind"] == "move" and m != h.move)
    after = rules.apply_move(state, 0, other).state
    reached = rules.view_for(after, 0)["councilors"][0][other["councilor"]]
    nxt = hint(after)
    if nxt.step is Step.VISIT:
        assert nxt.params["location"] == reached
        assert f"loc:{reached}" in nxt.targets
    else:  # nothing to do there: on to the next part of the turn
        assert nxt.step in (Step.CARD_ACTION, Step.BONUS, Step.END_TURN)
    assert all(x.step is not Step.MOVE for x in [nxt]), "the move is done, whichever it was"


def test_skipping_the_suggested_visit_action_moves_on() -> None:
    state = first(rules.new_game(3, OPTIONS), Step.VISIT, 3)
    end = next(m for m in wire(state, 0) if m["kind"] == "end_visit")
    nxt = hint(rules.apply_move(state, 0, end).state)
    assert nxt.step in (Step.CARD_ACTION, Step.MOVE, Step.BONUS, Step.END_TURN)


def test_after_the_game_the_hints_let_go() -> None:
    seen = follow(5)
    assert seen[-1].step is Step.DONE and seen[-1].move is None and seen[-1].targets == ()


def test_a_spectator_view_has_no_hint() -> None:
    state = rules.new_game(1, OPTIONS)
    with pytest.raises(ValueError):
        hint_for(dict(rules.view_for(state, None)), [])


# The /rules page's section ids (static/js/rulespage.js, its table of contents and locations).
RULES_ANCHORS = {
    "turn", "locations", "market", "deliveries", "favor-tokens", "titles", "craftsmen",
    "advisors", "events", "round-end", "scoring", "forest", "grain_field", "quarry",
    "weaving_mill", "castle", "cathedral", "construction_site",
}  # fmt: skip


def test_every_hint_links_an_existing_section_of_the_rules() -> None:
    for seed in range(1, 6):
        for h in follow(seed):
            assert h.rules is None or h.rules in RULES_ANCHORS, h
            if h.step is Step.VISIT and h.move and h.move["kind"] == "harvest":
                assert h.rules == h.params["location"]
