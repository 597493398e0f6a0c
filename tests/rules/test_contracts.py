"""The typed contracts (app/rules/contracts.py) describe what the engine really hands out."""

from __future__ import annotations

import random
from typing import Any

from app.rules import apply_move, events_for, legal_moves, new_game, outcome, to_act, view_for
from app.rules.contracts import (
    EngineEvent,
    Outcome,
    OutcomePlayer,
    PlayerView,
    TurnView,
    View,
    VisitView,
)


def keys(td: Any) -> set[str]:
    return set(td.__required_keys__) | set(td.__optional_keys__)


def check_view(view: Any) -> None:
    assert set(view) == keys(View) == set(View.__required_keys__)
    for p in view["players_state"]:
        assert set(p) == keys(PlayerView)
    turn = view["turn"]
    if turn is not None:
        assert set(turn) == keys(TurnView)
        if turn["visit"] is not None:
            assert set(turn["visit"]) == keys(VisitView)
    if view["outcome"] is not None:
        check_outcome(view["outcome"])


def check_outcome(out: Any) -> None:
    assert set(out) == keys(Outcome)
    for p in out["players"]:
        assert set(p) == keys(OutcomePlayer)


def test_views_outcomes_and_events_match_their_types() -> None:
    allowed = keys(EngineEvent)
    for seed, options in [(3, {"players": 1}), (4, {"players": 3, "random_locations": True})]:
        rng = random.Random(seed)
        state = new_game(seed, options)
        seen: set[str] = set()
        while to_act(state):
            seat = to_act(state)[0]
            moves = legal_moves(state, seat)
            tr = apply_move(state, seat, moves[int(rng.random() * len(moves))])
            for ev in tr.events:
                assert "type" in ev and set(ev) <= allowed, ev
                seen.add(ev["type"])
            for viewer in (None, seat):
                for ev in events_for(tr.events, viewer):
                    assert set(ev) <= allowed
            state = tr.state
            check_view(view_for(state, seat))
        out = outcome(state)
        assert out is not None
        check_outcome(out)
        assert {"game_finished", "cp_gained", "councilor_moved"} <= seen
