"""What the analysis asks of a bot, as a small Protocol: each player's expected final score from
one seat's view, and the move the bot prefers there. Both are deterministic for the same inputs.

``StrongBot`` answers with the strong bot's own functions: ``app.bots.estimate.estimate``
(``playouts`` determinized states, each played to the end) and ``app.bots.advice.advise`` (the
strong bot's choice with a playout count and no clock), and ``outcomes`` (per-sample playout
scores after given moves, with common random numbers: the measure of a swing or of luck). Its
``version`` names every budget, so
numbers computed with other budgets are never mixed up with these.
"""

from __future__ import annotations

from typing import Protocol

from app import rules
from app.bots.advice import advise
from app.bots.estimate import estimate, outcomes

# Bump when the estimate or the advice changes their numbers for the same inputs.
# 2: one seed for every position's estimate (common random numbers); 3: at a table, the strong
# bot's playouts run through the other seats' turns to the end of its next turn; 4: a swing is a
# move's measured cost against the bot's preferred move, and chance is measured apart as luck.
METHOD = "strong-4"
ADVICE_PLAYOUTS = 48
# Playouts per move measured at a swing's or a luck step's position, and playouts per game for
# all of those (docs/analysis.md "Swings and luck": the measured noise behind these numbers).
MEASURE_SAMPLES = 32
MEASURE_BUDGET = 2000


class AnalysisBot(Protocol):
    version: str
    samples: int  # playouts per move where a swing or luck is measured
    budget: int  # playouts per game for all such measures

    def expected(
        self, view: rules.View, legal: list[rules.EncodedMove], seat: int, rng_seed: int
    ) -> list[float]:
        """Each player's expected final score (index = seat), from ``seat``'s own view."""

    def preferred(
        self, view: rules.View, legal: list[rules.EncodedMove], rng_seed: int
    ) -> rules.EncodedMove:
        """The move (one of ``legal``, wire form) the bot prefers for the view's seat."""

    def outcomes(
        self,
        view: rules.View,
        seat: int,
        mover: int,
        moves: list[rules.EncodedMove | None],
        rng_seed: int,
    ) -> list[list[list[float]]]:
        """Each player's final score in each of ``samples`` playouts after each of ``mover``'s
        moves (None: as the position stands), from ``seat``'s view, with common random numbers
        across the moves: ``out[move][sample][seat]``."""


def final_scores(outcome: rules.Outcome, players: int) -> list[float]:
    scores = [0.0] * players
    for p in outcome["players"]:
        scores[int(p["seat"])] = float(p["score"])
    return scores


class StrongBot:
    def __init__(
        self,
        playouts: int,
        advice_playouts: int = ADVICE_PLAYOUTS,
        *,
        samples: int = MEASURE_SAMPLES,
        budget: int = MEASURE_BUDGET,
    ) -> None:
        if playouts < 1 or samples < 2:
            raise ValueError("an estimate needs at least one playout, a measure two")
        self.playouts = playouts
        self.advice_playouts = advice_playouts
        self.samples = samples
        self.budget = budget
        self.version = version_of(playouts, advice_playouts, samples, budget)

    def expected(
        self, view: rules.View, legal: list[rules.EncodedMove], seat: int, rng_seed: int
    ) -> list[float]:
        return estimate(view, legal, seat, self.playouts, rng_seed)

    def preferred(
        self, view: rules.View, legal: list[rules.EncodedMove], rng_seed: int
    ) -> rules.EncodedMove:
        return advise(view, legal, self.advice_playouts, rng_seed)["move"]

    def outcomes(
        self,
        view: rules.View,
        seat: int,
        mover: int,
        moves: list[rules.EncodedMove | None],
        rng_seed: int,
    ) -> list[list[list[float]]]:
        return outcomes(view, seat, moves, self.samples, rng_seed, mover)


def version_of(playouts: int, advice_playouts: int, samples: int, budget: int) -> str:
    """The bot version: the method and every budget that changes the numbers."""
    return f"{METHOD}/p{playouts}/a{advice_playouts}/s{samples}/b{budget}"
