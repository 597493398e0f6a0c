"""The strong bot's playout budget, its advice and the estimate: counted, reproducible, and
blind to what its seat may not see."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from app import rules
from app.bots import BotError, choose_move, lookahead, policy
from app.bots.advice import advise
from app.bots.endgame import endgame, last_turn
from app.bots.estimate import estimate
from app.bots.onestep import (
    after,
    final_value,
    greedy_move,
    own_part,
    position_value,
    scored,
    visited_value,
)
from app.bots.policy import Limit, position_seed, rank_moves
from app.bots.value import ADVISOR_TRACK
from app.bots.value import estimate as value_estimate


def _legal(state: Any, seat: int) -> list[dict[str, Any]]:
    return [rules.encode_move(m) for m in rules.legal_moves(state, seat)]


def _position(seed: int, players: int, steps: int) -> Any:
    """A position `steps` random moves into a game where the seat to act has a real choice."""
    rng = random.Random(seed)
    state = rules.new_game(seed, {"players": players})
    n = 0
    while n < steps or len(_legal(state, rules.to_act(state)[0])) < 3:
        seat = rules.to_act(state)[0]
        state = rules.apply_move(state, seat, rng.choice(_legal(state, seat))).state
        n += 1
    return state


@pytest.mark.parametrize("players", [1, 3])
def test_playout_budget_is_counted_not_timed(players: int) -> None:
    state = _position(21 + players, players, 12)
    seat = rules.to_act(state)[0]
    view, legal = rules.view_for(state, seat), _legal(state, seat)
    for playouts in (0, 1, 7, 30):
        limit = Limit.of(None, playouts)
        rated = rank_moves(view, legal, "strong", 5, limit)
        assert limit.used == playouts  # every playout allowed is used, never one more
        assert sum(r.playouts for r in rated) <= playouts
        assert rated[0].move in legal


class _Ticks:
    """A clock that moves on by `step` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_the_budget_is_read_from_the_clock_given() -> None:
    state = _position(24, 3, 12)
    seat = rules.to_act(state)[0]
    view, legal = rules.view_for(state, seat), _legal(state, seat)
    # a clock that runs out at once: no playout, the one-step choice
    limit = Limit.of(0.5, None, _Ticks(1.0))
    rated = rank_moves(view, legal, "strong", 5, limit)
    assert limit.used == 0 and all(r.playouts == 0 for r in rated)
    # a clock that stands still: the playout count alone decides, and the monotonic clock is
    # never the one read
    limit = Limit.of(0.5, 7, lambda: 0.0)
    rank_moves(view, legal, "strong", 5, limit)
    assert limit.used == 7


def test_the_turn_timer_splits_the_turn_on_its_own_clock() -> None:
    state = _position(25, 2, 10)
    seat = rules.to_act(state)[0]
    view = rules.view_for(state, seat)
    clock = _Ticks(0.0)
    timer = policy.TurnTimer(0.35, 0.12, clock)
    assert timer.budget(view) == pytest.approx(0.12)
    clock.now += 0.23  # the turn's first moves took 0.23 s of that clock
    assert timer.budget(view) == pytest.approx(0.06)  # half of what is left
    clock.now += 0.2
    assert timer.budget(view) == 0.0


def test_strong_choice_is_the_same_for_the_same_inputs() -> None:
    state = _position(31, 2, 15)
    seat = rules.to_act(state)[0]
    view, legal = rules.view_for(state, seat), _legal(state, seat)
    first = choose_move(view, legal, "strong", 9, None, 20)
    for _ in range(2):
        assert choose_move(view, legal, "strong", 9, None, 20) == first
    a = rank_moves(view, legal, "strong", 9, Limit.of(None, 20))
    b = rank_moves(view, legal, "strong", 9, Limit.of(None, 20))
    assert a == b


def test_position_seed_depends_on_the_view_only() -> None:
    state = _position(41, 2, 10)
    seat = rules.to_act(state)[0]
    view = rules.view_for(state, seat)
    assert position_seed(view) == position_seed(rules.view_for(state, seat))
    nxt = rules.apply_move(state, seat, _legal(state, seat)[0]).state
    assert position_seed(rules.view_for(nxt, seat)) != position_seed(view)


def test_advice_names_a_legal_move_and_why() -> None:
    state = _position(51, 1, 20)
    view, legal = rules.view_for(state, 0), _legal(state, 0)
    advice = advise(view, legal, 12, 3)
    assert advice == advise(view, legal, 12, 3)
    assert advice["move"] in legal
    assert advice["reason"] == "playouts"
    assert advice["playouts"] == 12
    assert advice["next_best"] in legal
    assert advice["next_best"] != advice["move"]
    assert advice["margin"] >= 0
    assert advise(view, legal, 0, 3)["reason"] == "one_step"
    assert advise(view, legal[:1], 12, 3)["reason"] == "only_move"


def test_estimate_takes_a_view_never_a_state() -> None:
    assert list(inspect.signature(estimate).parameters) == [
        "view",
        "legal",
        "seat",
        "budget",
        "rng_seed",
    ]


def test_estimate_is_the_same_for_the_same_inputs() -> None:
    state = _position(61, 2, 40)
    seat = rules.to_act(state)[0]
    view, legal = rules.view_for(state, seat), _legal(state, seat)
    first = estimate(view, legal, seat, 2, 77)
    assert len(first) == 2
    assert all(score > 0 for score in first)
    assert estimate(view, legal, seat, 2, 77) == first


def test_estimate_does_not_see_another_seats_hand() -> None:
    """Two true states that differ only in the other seat's hidden hand and deck give the seat
    the same view, and so the same estimate."""
    state = _position(71, 2, 6)
    seat = rules.to_act(state)[0]
    other = 1 - seat
    tree = rules.encode_state(state)
    p = tree["ps"][other]
    assert p["hand"] and p["deck"]
    p["hand"][0], p["deck"][0] = p["deck"][0], p["hand"][0]
    changed = rules.decode_state(tree)
    assert rules.view_for(changed, other) != rules.view_for(state, other)
    view = rules.view_for(state, seat)
    assert rules.view_for(changed, seat) == view
    legal = _legal(state, seat)
    assert estimate(rules.view_for(changed, seat), _legal(changed, seat), seat, 2, 5) == estimate(
        view, legal, seat, 2, 5
    )


def test_estimate_refuses_a_foreign_view_or_no_budget() -> None:
    state = _position(81, 2, 5)
    seat = rules.to_act(state)[0]
    legal = _legal(state, seat)
    with pytest.raises(BotError) as err:
        estimate(rules.view_for(state, 1 - seat), legal, seat, 1, 1)
    assert err.value.code == "not_a_seat_view"
    with pytest.raises(BotError) as err:
        estimate(rules.view_for(state, seat), legal, seat, 0, 1)
    assert err.value.code == "bad_budget"


def _to_last_turn(seed: int, players: int) -> Any:
    """A greedy game played into the first seat's last turn of the game, to a real choice whose
    lines are few enough to search (at the turn's start there may be too many)."""
    rng = random.Random(seed)
    state = rules.new_game(seed, {"players": players})
    while True:
        seat = rules.to_act(state)[0]
        legal = _legal(state, seat)
        searchable = len(legal) >= 3 and last_turn(state, seat)
        if searchable and endgame(state, seat, legal, Limit.of(None, None)) is not None:
            return state
        state = rules.apply_move(state, seat, greedy_move(state, seat, legal, rng)).state


def _finish_turn(state: Any, seat: int, level: str) -> Any:
    """Play `seat`'s current turn to its end with `level` (moves seeded by their number)."""
    n = 0
    while rules.outcome(state) is None and seat in rules.to_act(state) and last_turn(state, seat):
        view: dict[str, Any] = dict(rules.view_for(state, seat))
        legal = _legal(state, seat)
        state = rules.apply_move(state, seat, choose_move(view, legal, level, n, None, 4)).state
        n += 1
    return state


@pytest.mark.parametrize(("seed", "players"), [(3, 1), (4, 2), (5, 4), (6, 1)])
def test_the_last_turn_is_searched_to_the_exact_final_score(seed: int, players: int) -> None:
    state = _to_last_turn(seed, players)
    seat = rules.to_act(state)[0]
    view: dict[str, Any] = dict(rules.view_for(state, seat))
    legal = _legal(state, seat)
    rated = rank_moves(view, legal, "strong", 1, Limit.of(None, 4))
    assert rated[0].playouts == 0  # decided by the search, not by playouts
    assert [r.value for r in rated] == sorted((r.value for r in rated), reverse=True)
    strong, greedy = _finish_turn(state, seat, "strong"), _finish_turn(state, seat, "greedy")
    exact_strong, exact_greedy = final_value(strong, seat), final_value(greedy, seat)
    assert exact_strong is not None and exact_greedy is not None
    # The search's best line is the one the bot then plays, and no greedy line beats it.
    assert exact_strong == pytest.approx(rated[0].value)
    assert exact_strong >= exact_greedy


def test_pace_only_limits_what_holdings_can_still_become() -> None:
    late = _to_last_turn(8, 2)
    early = _position(9, 2, 4)
    for state in (early, late):
        for seat in range(2):
            view = own_part(state, seat)
            free = value_estimate(view, seat)
            assert value_estimate(view, seat, None) == free
            assert value_estimate(view, seat, 8.0) <= free + 1e-9
            if not set(view["players_state"][seat]["advisors"]) & set(ADVISOR_TRACK):
                assert value_estimate(view, seat, 1000.0) == pytest.approx(free)
    # Late in the game, a tight pace values the same holdings lower.
    seat = rules.to_act(late)[0]
    view = own_part(late, seat)
    assert value_estimate(view, seat, 0.0) < value_estimate(view, seat)


def _holding(advisor: str, cp: int, bp: int) -> dict[str, Any]:
    """The part of a view the value reads: one seat in round 3 with one advisor."""
    me = {
        "cp": cp,
        "bp": bp,
        "resources": {},
        "goods": {},
        "craftsmen": [],
        "advisors": [advisor],
        "favor_tokens": [],
        "turns_taken": 0,
    }
    return {"phase": "turns", "round": 3, "outcome": None, "players_state": {0: me}}


def test_the_paced_value_counts_a_one_track_advisor_on_its_track() -> None:
    # The Baker (bread: CP) and the Bailiff (BP) yield alike each turn; a seat behind on CP gains
    # more from the one that feeds CP, a seat behind on BP from the other.
    assert ADVISOR_TRACK["baker"] == "cp" and ADVISOR_TRACK["bailiff"] == "bp"
    behind_on_cp, behind_on_bp = (20, 40), (40, 20)
    for pace in (8.0, 1000.0):
        assert value_estimate(_holding("baker", *behind_on_cp), 0, pace) > value_estimate(
            _holding("bailiff", *behind_on_cp), 0, pace
        )
        assert value_estimate(_holding("bailiff", *behind_on_bp), 0, pace) > value_estimate(
            _holding("baker", *behind_on_bp), 0, pace
        )
    # Unpaced (the greedy level's value) the yield of either may go to either track.
    assert value_estimate(_holding("baker", *behind_on_cp), 0) == value_estimate(
        _holding("bailiff", *behind_on_cp), 0
    )


def test_a_playout_at_a_table_plays_the_other_seats_to_the_seats_next_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _position(21, 3, 6)
    seat = rules.to_act(state)[0]
    taken = state.tree["ps"][seat]["turns_taken"]
    movers: list[int] = []
    greedy = lookahead.greedy_move
    ends: list[Any] = []
    real_value = lookahead.position_value

    def record(sim: Any, who: int, legal: list[dict[str, Any]], rng: random.Random) -> Any:
        movers.append(who)
        return greedy(sim, who, legal, rng)

    def value(sim: Any, who: int, pace: float | None = None) -> float:
        ends.append(sim)
        return real_value(sim, who, pace)

    monkeypatch.setattr(lookahead, "greedy_move", record)
    monkeypatch.setattr(lookahead, "position_value", value)
    move = _legal(state, seat)[0]
    assert lookahead.rollout(state, seat, move, random.Random(1), lookahead.paced) is not None
    assert movers and seat not in movers  # the other seats moved, greedily
    end = ends[-1].tree
    if end["phase"] == "turns" and end["round"] == state.tree["round"]:
        assert end["ps"][seat]["turns_taken"] == taken + lookahead.ROLLOUT_TURNS


@pytest.mark.parametrize(("seed", "players"), [(11, 1), (12, 4), (13, 4)])
def test_the_strong_bot_values_a_card_by_its_action_and_its_slots_movement(
    seed: int, players: int
) -> None:
    # One step ahead every card and slot is worth the same (the greedy level draws among them);
    # the strong bot's candidates and its own moves in playouts count what the card's action and
    # the slot's movement then bring, each worked out on the state after that very card.
    state = rules.new_game(seed, {"players": players})
    seat = rules.to_act(state)[0]
    legal = _legal(state, seat)
    assert {m["kind"] for m in legal} == {"play_card"} and len(legal) > 3
    pace = lookahead.STRONG_PACE
    assert len({s for s, _ in scored(state, seat, legal, pace)}) == 1
    now = position_value(state, seat, pace)
    valued = dict((i, s) for s, i in scored(state, seat, legal, pace, cards=True))
    for i, move in enumerate(legal):
        nxt = after(state, seat, move)
        assert nxt is not None
        gains: dict[str, list[float]] = {"card_action": [], "move": []}
        for follow in _legal(nxt, seat):
            then = after(nxt, seat, follow)
            if follow["kind"] in gains and then is not None:
                gains[follow["kind"]].append(visited_value(then, seat, follow, pace) - now)
        expected = now + max([0.0, *gains["card_action"]]) + max(gains["move"])
        assert valued[i] == pytest.approx(expected)
    assert len({round(s, 6) for s in valued.values()}) > 1
    best = max(valued.values())
    rng = random.Random(seed)
    for _ in range(5):
        assert valued[legal.index(lookahead.paced(state, seat, legal, rng))] == best
