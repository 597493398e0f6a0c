"""What the analysis asks of a bot, as a small Protocol: each player's expected final score from
one seat's view, and the move the bot prefers there. Both are deterministic for the same inputs.

``PlayoutBot`` answers with determinized playouts: ``playouts`` full game states the seat cannot
tell from the real one (``app.bots.sample.determinize``), each played to the end by the engine's
greedy player; each player's final scores are averaged. Its ``version`` names the method and the
playout budget, so results computed with another budget are never mixed up with these.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from app import rules
from app.bots import choose_move
from app.bots.sample import determinize
from app.rules.simulate import greedy_move

# A playout that has not ended after this many moves is cut short (greedy play ends far sooner).
MAX_PLAYOUT_MOVES = 4000
# Moves in one turn after which the greedy player closes the turn (as the engine's simulation).
PER_TURN_CAP = 14


class AnalysisBot(Protocol):
    version: str

    def expected(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: int, rng_seed: int
    ) -> list[float]:
        """Each player's expected final score (index = seat), from ``seat``'s own view."""

    def preferred(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng_seed: int
    ) -> dict[str, Any]:
        """The move (one of ``legal``, wire form) the bot prefers for the view's seat."""


def final_scores(outcome: Any, players: int) -> list[float]:
    scores = [0.0] * players
    for p in outcome["players"]:
        scores[int(p["seat"])] = float(p["score"])
    return scores


def playout(state: Any, rng: random.Random) -> list[float]:
    """``state`` played to its end by the greedy player at every seat: each final score."""
    del rng  # the engine's greedy player is deterministic
    n = int(state.tree["players"])
    per_turn = 0
    last: tuple[Any, ...] | None = None
    for _ in range(MAX_PLAYOUT_MOVES):
        out = rules.outcome(state)
        if out is not None:
            return final_scores(out, n)
        seat = rules.to_act(state)[0]
        key = (state.tree["round"], state.tree["turn_index"], seat)
        per_turn = per_turn + 1 if key == last else 0
        last = key
        state = rules.apply_move(state, seat, greedy_move(state, seat, per_turn)).state
    return [float(min(p["cp"], p["bp"])) for p in state.tree["ps"]]


class PlayoutBot:
    def __init__(self, playouts: int) -> None:
        if playouts < 1:
            raise ValueError("an estimate needs at least one playout")
        self.playouts = playouts
        self.version = f"playout-greedy-1/p{playouts}"

    def expected(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: int, rng_seed: int
    ) -> list[float]:
        del legal
        n = int(view["players"])
        if view.get("outcome"):
            return final_scores(view["outcome"], n)
        rng = random.Random(rng_seed)
        totals = [0.0] * n
        for _ in range(self.playouts):
            for s, score in enumerate(playout(determinize(view, rng), rng)):
                totals[s] += score
        return [t / self.playouts for t in totals]

    def preferred(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng_seed: int
    ) -> dict[str, Any]:
        return choose_move(view, legal, "greedy", rng_seed)
