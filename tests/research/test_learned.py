"""The shipped value model loads, fits the observation layout, and its agent plays legal moves
from its own view."""

from __future__ import annotations

import random

from app import rules
from app.research import actions, observe
from app.research.learned import CHAMBERLAIN, LinearValue, ValueAgent


def test_the_shipped_model_plays_legal_moves_from_its_view() -> None:
    model = LinearValue.shipped()
    assert len(model.weight) == observe.size()
    agent = ValueAgent(model)
    state = rules.new_game(3, {"players": 2, "undo": False})
    rng = random.Random(3)
    for _ in range(40):
        seat = rules.to_act(state)[0]
        legal = actions.legal_actions(state, seat)
        action = agent.act(rules.view_for(state, seat), legal)
        assert action in legal
        assert action not in CHAMBERLAIN or len(set(legal) - CHAMBERLAIN) == 0
        move = actions.move_of(action if rng.random() < 0.5 else rng.choice(legal))
        state = rules.apply_move(state, seat, move).state
