"""What the analysis asks of a bot, as a small Protocol: each player's expected final score from
one seat's view, and the move the bot prefers there. Both are deterministic for the same inputs.

``StrongBot`` answers with the strong bot's own functions: ``app.bots.estimate.estimate``
(``playouts`` determinized states, each played to the end) and ``app.bots.advice.advise`` (the
strong bot's choice with a playout count and no clock). Its ``version`` names both budgets, so
numbers computed with other budgets are never mixed up with these.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.bots.advice import advise
from app.bots.estimate import estimate

# Bump when the estimate or the advice changes their numbers for the same inputs.
# 2: one seed for every position's estimate (common random numbers); 3: at a table, the strong
# bot's playouts run through the other seats' turns to the end of its next turn.
METHOD = "strong-3"
ADVICE_PLAYOUTS = 48


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


class StrongBot:
    def __init__(self, playouts: int, advice_playouts: int = ADVICE_PLAYOUTS) -> None:
        if playouts < 1:
            raise ValueError("an estimate needs at least one playout")
        self.playouts = playouts
        self.advice_playouts = advice_playouts
        self.version = f"{METHOD}/p{playouts}/a{advice_playouts}"

    def expected(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: int, rng_seed: int
    ) -> list[float]:
        return estimate(view, legal, seat, self.playouts, rng_seed)

    def preferred(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng_seed: int
    ) -> dict[str, Any]:
        return dict(advise(view, legal, self.advice_playouts, rng_seed)["move"])
