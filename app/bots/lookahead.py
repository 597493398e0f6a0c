"""Looking ahead: the `strong` level plays its best candidates out on sampled states.

Each candidate move is played, then the game goes on on a state the seat cannot tell from the
real one (`sample.determinize`) until the end of the round (solo) or the seat's next turn (at a
table), and the result is valued; the candidates' mean values over the samples decide. `Limit`
says how long this may go on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app import rules
from app.bots.onestep import after, best_of, greedy_move, position_value, scored, wire_moves
from app.bots.sample import determinize

MAX_CANDIDATES = 10  # `strong` plays out at most this many of the best one-step candidates
MAX_ROUND_STEPS = 40  # solo: moves a playout to the end of the round plays at most
# At a table a playout ends with the seat's next turn (this many turns counted from the one it
# is in), after at most this many moves of every seat.
ROLLOUT_TURNS = 2
MAX_TABLE_STEPS = 80
MAX_SAMPLES = 24
# `strong` values positions with what holdings can still become limited to this many points a
# remaining turn (`value.estimate`'s `pace`): late in the game that keeps its two tracks level.
STRONG_PACE: float | None = 8.0

# How a playout chooses the seat's own moves.
Policy = Callable[[rules.GameState, int, list[rules.EncodedMove], random.Random], rules.EncodedMove]


@dataclass(frozen=True)
class Rated:
    """One candidate move with its mean playout value and the playouts behind it (0: one step)."""

    move: rules.EncodedMove
    value: float
    playouts: int


@dataclass
class Limit:
    """How long `strong` may think: a monotonic deadline and/or a number of playouts."""

    deadline: float | None = None
    playouts: int | None = None
    used: int = field(default=0)
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def of(
        cls,
        budget: float | None,
        playouts: int | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Limit:
        deadline = None if budget is None else clock() + max(budget, 0.0)
        return cls(deadline, None if playouts is None else max(playouts, 0), clock=clock)

    def spent(self) -> bool:
        if self.playouts is not None and self.used >= self.playouts:
            return True
        return self.deadline is not None and self.clock() > self.deadline


def paced(
    state: rules.GameState, seat: int, legal: list[rules.EncodedMove], rng: random.Random
) -> rules.EncodedMove:
    """The strong bot's own moves inside a playout: greedy on the paced value."""
    return legal[best_of(scored(state, seat, legal, STRONG_PACE, cards=True), rng)]


def rollout(
    state: rules.GameState,
    seat: int,
    move: rules.EncodedMove,
    rng: random.Random,
    policy: Policy,
) -> float | None:
    """Play `move`, then play on with `policy` for the seat; value the result.

    Solo, the playout goes on to the end of the round (the seat's later turns of the round
    included): nobody else moves in between, and what a turn sets up often pays off in the next.
    At a table it goes on through the other seats' turns, each seat playing greedily on the
    sampled state, to the end of the seat's next turn (or of the round): what the others take
    from the rondels and the town before then, and what the seat can still do after them, count.
    """
    solo = int(state.tree["players"]) == 1
    rnd = state.tree["round"]
    done = state.tree["ps"][seat]["turns_taken"] + ROLLOUT_TURNS
    sim = after(state, seat, move)
    if sim is None:
        return None
    for _ in range(MAX_ROUND_STEPS if solo else MAX_TABLE_STEPS):
        st = sim.tree
        acting = list(rules.to_act(sim))
        if not acting or (solo and seat not in acting):
            break
        if st["phase"] != "turns" or st["round"] != rnd:
            break
        if not solo and st["ps"][seat]["turns_taken"] >= done:
            break
        who = seat if solo else acting[0]
        legal = wire_moves(sim, who)
        if not legal:
            break
        pick = policy(sim, seat, legal, rng) if who == seat else greedy_move(sim, who, legal, rng)
        nxt = after(sim, who, pick)
        if nxt is None:
            break
        sim = nxt
    return position_value(sim, seat, STRONG_PACE)


def strong(
    view: rules.View,
    state: rules.GameState,
    seat: int,
    legal: list[rules.EncodedMove],
    rng: random.Random,
    limit: Limit,
) -> list[Rated]:
    """`legal` rated by playouts on sampled states, best first, within `limit`."""
    first = scored(state, seat, legal, STRONG_PACE, cards=True)
    first.sort(key=lambda t: -t[0])
    one_step = [Rated(legal[i], s, 0) for s, i in first]
    # Keep the best one-step candidates, and at least one of each kind so a quiet move that pays
    # off later in the turn (playing a card, moving a councilor) is still played out.
    keep: list[int] = []
    kinds: set[str] = set()
    for s, i in first:
        kind = str(legal[i].get("kind"))
        if s == float("-inf"):
            continue
        if len(keep) < MAX_CANDIDATES or kind not in kinds:
            keep.append(i)
            kinds.add(kind)
    if len(keep) <= 1 or limit.spent():  # nothing to compare or no time: the one-step choice
        return one_step
    totals = dict.fromkeys(keep, 0.0)
    counts = dict.fromkeys(keep, 0)
    sample_state = state
    for sample in range(MAX_SAMPLES):
        if sample:
            if limit.spent():
                break
            sample_state = determinize(view, rng)
        for i in keep:
            if limit.spent() and (sample or counts[keep[0]]):
                break  # out of budget: the candidates played out so far decide
            limit.used += 1
            v = rollout(sample_state, seat, legal[i], rng, paced)
            if v is None:
                continue
            totals[i] += v
            counts[i] += 1
    rated = [(totals[i] / counts[i], i) for i in keep if counts[i]]
    if not rated:
        return one_step
    # A candidate the budget left one sample short is compared on its mean all the same.
    best = best_of(rated, rng)
    rated.sort(key=lambda t: -t[0])
    order = [best, *(i for _, i in rated if i != best)]
    return [Rated(legal[i], totals[i] / counts[i], counts[i]) for i in order]
