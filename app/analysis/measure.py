"""Swings and luck, measured: what a move cost against the bot's choice, and what chance did.

A **swing** is a move whose cost is large: at the position before it, from the mover's own view,
the bot's preferred move and the move played are each played out ``samples`` times with common
random numbers (sample ``i`` draws the same hidden state and random stream for both), and the
cost is the mean of the per-sample differences of the mover's final score (preferred minus
played), with its standard error from those differences. A move the bot prefers costs 0 and is
never measured. A cost is reported only when it is at least ``SIGMAS`` standard errors and
``MIN_POINTS`` points: a swing well above its own noise.

**Luck** is what the cards drawn, the favor tokens drawn, the event revealed and the advisor
revealed did: for a move with such an event, each seat that saw something new (the mover; a seat
that drew) compares its expected score after the move, the draw known (its view at the next
position), with its expected score of the move played, the draw not yet known (its view at the
position before). The difference is that seat's luck; it is nobody's swing.

Which positions are measured is chosen from the expected-score curve (the screen) within a
budget of playouts per game, deterministically: each player's ``CANDIDATES_PER_PLAYER`` biggest
falls of their own expected score across one of their own moves after which they still act
(taken in turn: each player's biggest first), then the chance steps, the biggest change first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from app import rules

SIGMAS = 3.0
MIN_POINTS = 1.0
CANDIDATES_PER_PLAYER = 4
SWINGS_PER_PLAYER = 3
LUCK_PER_PLAYER = 3

# Events whose outcome nobody chose: a draw from a hidden deck or pile, a card turned up.
CHANCE_EVENTS = frozenset(
    {
        "cards_drawn",
        "favor_drawn",
        "event_revealed",
        "advisor_revealed",
        "deck_reshuffled",
        "favor_pile_reshuffled",
    }
)
# The chance events that show something to one seat only (its own draw).
PRIVATE_DRAWS = frozenset({"cards_drawn", "favor_drawn"})


@dataclass(frozen=True)
class Stat:
    """A measured mean and its standard error (points)."""

    mean: float
    se: float

    @property
    def significant(self) -> bool:
        return abs(self.mean) >= MIN_POINTS and abs(self.mean) >= SIGMAS * self.se

    def rounded(self) -> list[float]:
        return [round(self.mean, 2), round(self.se, 2)]


def _var(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return math.inf
    m = sum(xs) / n
    return sum((x - m) ** 2 for x in xs) / (n - 1)


def paired(a: Sequence[float], b: Sequence[float]) -> Stat:
    """Mean of ``a - b`` sample by sample (common random numbers), with its standard error."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    if not d:
        return Stat(0.0, math.inf)
    return Stat(sum(d) / len(d), math.sqrt(_var(d) / len(d)))


def unpaired(a: Sequence[float], b: Sequence[float]) -> Stat:
    """Mean of ``a`` minus mean of ``b`` (independent samples), with its standard error."""
    if not a or not b:
        return Stat(0.0, math.inf)
    return Stat(sum(a) / len(a) - sum(b) / len(b), math.sqrt(_var(a) / len(a) + _var(b) / len(b)))


def is_chance(events: Sequence[rules.EngineEvent]) -> bool:
    return any(e.get("type") in CHANCE_EVENTS for e in events)


def lucky_seats(mover: int, events: Sequence[rules.EngineEvent]) -> tuple[int, ...]:
    """The seats that learn something by chance in a move: the mover, and every seat that drew."""
    seats = {mover}
    seats.update(int(e["seat"]) for e in events if e.get("type") in PRIVATE_DRAWS)
    return tuple(sorted(seats))


@dataclass
class Step:
    """A position to measure: ``position`` is the one before the move (move ``position + 1``)."""

    position: int
    swing: bool = False
    luck: tuple[int, ...] = field(default_factory=tuple)


def screen(
    expected: dict[int, list[float]], movers: list[int], players: int
) -> dict[int, list[int]]:
    """Each player's candidate moves (the position before each), biggest fall first: their own
    moves after which they still act (a move that passes the turn changes whose eyes see the
    next position, so its change is not the move's), by the change of their own expected
    score (ties: the earlier move)."""
    out: dict[int, list[int]] = {}
    for seat in range(players):
        found: list[tuple[float, int]] = []
        for i, mover in enumerate(movers):
            n = i + 1
            if mover != seat or n not in expected or i not in expected:
                continue
            if n >= len(movers) or movers[n] != seat:
                continue
            found.append((expected[n][seat] - expected[i][seat], i))
        found.sort()
        out[seat] = [i for _, i in found[:CANDIDATES_PER_PLAYER]]
    return out


def plan(
    expected: dict[int, list[float]],
    movers: list[int],
    events: list[list[rules.EngineEvent]],
    players: int,
    samples: int,
    budget: int,
    advice_playouts: int,
) -> list[Step]:
    """The positions measured within ``budget`` playouts, in the order they are taken (the
    same curve and budget: the same plan). A swing candidate costs the advice's playouts and
    two moves' samples; a chance step one move's samples twice for each seat that learns
    something (the played move's samples are shared with a swing at the same position)."""
    chosen: dict[int, Step] = {}
    spent = 0
    by_seat = screen(expected, movers, players)
    rounds = max((len(v) for v in by_seat.values()), default=0)
    for r in range(rounds):
        for seat in range(players):
            if r >= len(by_seat[seat]):
                continue
            cost = advice_playouts + 2 * samples
            if spent + cost > budget:
                continue
            spent += cost
            chosen[by_seat[seat][r]] = Step(by_seat[seat][r], swing=True)
    steps = [
        i
        for i in range(len(movers))
        if i in expected and i + 1 in expected and is_chance(events[i])
    ]
    steps.sort(key=lambda i: (-abs(expected[i + 1][movers[i]] - expected[i][movers[i]]), i))
    for i in steps:
        seats = lucky_seats(movers[i], events[i])
        step = chosen.get(i)
        cost = sum(samples if (step is not None and s == movers[i]) else 2 * samples for s in seats)
        if spent + cost > budget:
            continue
        spent += cost
        if step is None:
            chosen[i] = Step(i, luck=seats)
        else:
            step.luck = seats
    return [chosen[i] for i in sorted(chosen)]
