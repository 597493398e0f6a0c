"""The strong bot's value at tables: the model fitted on its own games (`app/bots/tracks.py`)."""

from __future__ import annotations

import copy
import json
import random
from importlib import resources
from typing import Any

import pytest

from app import rules
from app.bots import lookahead, onestep, tracks
from app.bots.onestep import own_part, position_value
from app.bots.value import estimate


def _position(seed: int, players: int, steps: int) -> Any:
    rng = random.Random(seed)
    state = rules.new_game(seed, {"players": players})
    for _ in range(steps):
        seat = rules.to_act(state)[0]
        legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
        state = rules.apply_move(state, seat, rng.choice(legal)).state
    return state


def test_the_shipped_model_names_its_features_and_covers_every_turn_left() -> None:
    doc = json.loads(resources.files("app.bots.data").joinpath("tracks.json").read_text())
    assert tuple(doc["features"]) == tracks.FEATURES
    model = tracks.model()
    assert len(model.weights) == len(model.spread) == tracks.MAX_LEFT + 1
    for per_target in model.weights:
        assert len(per_target) == len(tracks.TARGETS)
        assert all(len(w) == len(tracks.FEATURES) for w in per_target)
    assert all(sc > 0 and sb > 0 and -1 <= rho <= 1 for sc, sb, rho in model.spread[1:])


def test_a_model_fitted_on_other_features_is_refused() -> None:
    doc = json.loads(resources.files("app.bots.data").joinpath("tracks.json").read_text())
    doc["features"] = doc["features"][::-1]
    with pytest.raises(ValueError, match="other features"):
        tracks.Model.from_json(doc)


def test_the_expected_lower_track_costs_an_uncertain_balance() -> None:
    assert tracks.expected_min(60, 70, 0.0, 0.0, 0.0) == 60
    # Level but uncertain: worth less than either mean, the more so the wider the spread.
    narrow = tracks.expected_min(60, 60, 2.0, 2.0, 0.0)
    wide = tracks.expected_min(60, 60, 6.0, 6.0, 0.0)
    assert wide < narrow < 60
    # Tracks that move together keep the balance: less is lost than when independent.
    assert tracks.expected_min(60, 60, 6.0, 6.0, 0.8) > wide
    # Far apart: the lower mean, nearly.
    assert tracks.expected_min(40, 70, 3.0, 3.0, 0.0) == pytest.approx(40, abs=1e-3)
    assert tracks.expected_min(70, 40, 3.0, 3.0, 0.0) == pytest.approx(40, abs=1e-3)


@pytest.mark.parametrize("seed", [21, 22])
def test_features_are_read_from_the_seats_own_part_only(seed: int) -> None:
    state = _position(seed, 4, 60)
    seat = rules.to_act(state)[0]
    before = tracks.predicted(state, seat)
    other = copy.deepcopy(state)
    for s, p in enumerate(other.tree["ps"]):
        if s != seat:
            p["res"] = {k: v + 3 for k, v in p["res"].items()}
            p["hand"], p["deck"] = p["deck"], p["hand"]
            p["cp"] += 7
    assert tracks.predicted(other, seat) == before


@pytest.mark.parametrize("seed", [23, 24])
def test_the_lower_track_raised_raises_the_value(seed: int) -> None:
    state = _position(seed, 4, 40)
    seat = rules.to_act(state)[0]
    p = state.tree["ps"][seat]
    low = "cp" if p["cp"] <= p["bp"] else "bp"
    raised = copy.deepcopy(state)
    raised.tree["ps"][seat][low] += 5
    assert tracks.predicted(raised, seat) > tracks.predicted(state, seat)


@pytest.mark.parametrize(("seed", "players"), [(25, 1), (26, 2), (27, 3), (28, 4)])
def test_the_strong_value_is_the_model_at_tables_and_the_paced_estimate_otherwise(
    seed: int, players: int
) -> None:
    state = _position(seed, players, 30)
    seat = rules.to_act(state)[0]
    pace = lookahead.STRONG_PACE
    paced = estimate(own_part(state, seat), seat, pace)
    fitted = tracks.predicted(state, seat)
    expected = fitted if players >= onestep.MODEL_AT else paced
    assert position_value(state, seat, pace) == expected
    # The greedy level (no pace) keeps the estimate everywhere.
    assert position_value(state, seat) == estimate(own_part(state, seat), seat)
