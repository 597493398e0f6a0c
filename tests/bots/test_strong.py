"""The strong bot's playout budget, its advice and the estimate: counted, reproducible, and
blind to what its seat may not see."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from app import rules
from app.bots import BotError, choose_move
from app.bots.advice import advise
from app.bots.estimate import estimate
from app.bots.policy import Limit, position_seed, rank_moves


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
