"""Move choice for the three bot levels.

`random` draws a legal move; `greedy` takes the best one-step result (`onestep`); `strong` plays
its best candidates out on sampled states (`lookahead`) and searches its last turn of the game
line by line (`endgame`).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

from app import rules
from app.bots.endgame import endgame, last_turn
from app.bots.lookahead import Limit, Rated, strong
from app.bots.onestep import after, best_of, is_exchange, position_value, scored
from app.bots.sample import determinize
from app.bots.value import estimate

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "TURN_BUDGET",
    "BotError",
    "Limit",
    "Rated",
    "TurnTimer",
    "canonical",
    "choose_move",
    "position_seed",
    "rank_moves",
]

LEVELS = ("random", "greedy", "strong")

DEFAULT_BUDGET = 0.12  # seconds of thinking per move for `strong`, at most
TURN_BUDGET = 0.35  # seconds of thinking for a whole turn (see TurnTimer)


class BotError(ValueError):
    """A bot was asked to move with bad input (no legal move, unknown level, foreign view)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def choose_move(
    view: rules.View,
    legal: list[rules.EncodedMove],
    level: str,
    rng_seed: int,
    budget: float | None = DEFAULT_BUDGET,
    playouts: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> rules.EncodedMove:
    """Pick one of `legal` for the seat whose own view is `view`.

    `view` must be a seat's view (`view["me"]` set); `legal` that seat's legal moves in wire form.
    The returned move is one of `legal`, unchanged.

    `strong` thinks until either limit runs out: `budget` seconds (None: no clock at all) or
    `playouts` playouts (None: no count). With `budget=None` and a playout count the choice
    depends on nothing but the inputs (benches, tests, analysis). `clock` reads the seconds the
    budget counts: the monotonic clock live; a bench may pass a CPU clock (`time.thread_time`),
    so a loaded machine spends what an idle one would.
    """
    limit = Limit.of(budget, playouts, clock)
    return rank_moves(view, legal, level, rng_seed, limit)[0].move


def rank_moves(
    view: rules.View, legal: list[rules.EncodedMove], level: str, rng_seed: int, limit: Limit
) -> list[Rated]:
    """`legal` rated the way `level` rates them, best first (the first is the bot's choice)."""
    if level not in LEVELS:
        raise BotError("bad_level", f"unknown bot level {level!r}; choose one of {list(LEVELS)}")
    # Bots never take moves back: `legal_moves` never lists `undo`; should a caller pass one
    # anyway, it is not a candidate.
    legal = [m for m in legal if m.get("kind") != "undo"]
    if not legal:
        raise BotError("no_legal_move", "the seat has no legal move")
    me = view.get("me")
    if not isinstance(me, dict) or "seat" not in me:
        raise BotError("not_a_seat_view", "a bot needs its own seat's view, not a public one")
    rng = random.Random(rng_seed)
    if len(legal) == 1 or level == "random":
        return [Rated(legal[0] if len(legal) == 1 else rng.choice(legal), 0.0, 0)]
    seat = int(me["seat"])
    state = determinize(view, rng)
    if level == "strong" and last_turn(state, seat) and not limit.spent():
        # The last turn is searched line by line (a line exchanges ring <-> gold once at most).
        solved = endgame(state, seat, legal, limit)
        if solved is not None:
            return solved
    legal = _no_cycles(view, seat, state, legal)
    if level == "greedy":
        scores = scored(state, seat, legal)
        best = best_of(scores, rng)
        rest = sorted((t for t in scores if t[1] != best), key=lambda t: -t[0])
        top = next(s for s, i in scores if i == best)
        return [Rated(legal[best], top, 0), *(Rated(legal[i], s, 0) for s, i in rest)]
    return strong(view, state, seat, legal, rng, limit)


def position_seed(view: rules.View) -> int:
    """A seed drawn from the position the seat sees (its own view): the same position always
    gives the same seed, so a bot's choice depends on nothing but what it is shown."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def _no_cycles(
    view: rules.View, seat: int, state: rules.GameState, legal: list[rules.EncodedMove]
) -> list[rules.EncodedMove]:
    """Drop repeatable exchanges (the Chamberlain's ring <-> gold) that do not strictly raise the
    seat's value right away: the value depends on public holdings only, so a bot can never swap
    back and forth forever."""
    now = estimate(view, seat)
    out = []
    for move in legal:
        if is_exchange(move):
            nxt = after(state, seat, move)
            if nxt is None or position_value(nxt, seat) <= now + 1e-6:
                continue
        out.append(move)
    return out or legal


class TurnTimer:
    """Splits one turn's thinking time over the moves of that turn, so a bot's whole turn stays
    within `turn_budget` seconds of thinking, each move taking at most `per_move`."""

    def __init__(
        self,
        turn_budget: float = TURN_BUDGET,
        per_move: float = DEFAULT_BUDGET,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.turn_budget = turn_budget
        self.per_move = per_move
        self.clock = clock
        self.key: tuple[Any, ...] | None = None
        self.started = 0.0

    def budget(self, view: rules.View) -> float:
        turn = view.get("turn")
        at = (None, None) if not turn else (turn.get("seat"), turn.get("number"))
        key = (view.get("phase"), view.get("round"), *at)
        now = self.clock()
        if key != self.key:
            self.key, self.started = key, now
        left = self.turn_budget - (now - self.started)
        return max(0.0, min(self.per_move, left / 2.0))


def canonical(move: rules.EncodedMove) -> str:
    """A stable text form of a wire move, for comparing moves."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))
