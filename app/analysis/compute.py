"""The analysis of one position, the measure of a swing or of luck (app/analysis/measure.py),
and the swings and luck of a whole game: pure functions over a replay.

Everything goes through the engine's public calls (``rules.view_for``, ``legal_moves``,
``apply_move``, ``summarize``) and the bot's Protocol. The seed of every estimate is drawn from
the record's key and the position, so the same record and bot version give the same numbers on
any instance, in any order, after any restart.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from app import rules
from app.analysis.bot import AnalysisBot, final_scores
from app.analysis.measure import SWINGS_PER_PLAYER, Stat, Step, paired, unpaired
from app.analysis.shapes import Measured, Preferred
from app.bots.onestep import wire_moves
from app.records.replay import Replayed


def seed_for(key: str, bot_version: str, position: int, purpose: str) -> int:
    digest = hashlib.sha256(f"{key}|{bot_version}|{position}|{purpose}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def estimate_seed(key: str, bot_version: str) -> int:
    """The one seed of every position's estimate in a game (common random numbers): adjacent
    positions are sampled and played out with the same random stream, so the change between
    them is the move's, not the dice's. Measured on the example record (positions 100-139,
    2 playouts): the mean step of an expected score fell from 3.75 to 1.3 points."""
    return seed_for(key, bot_version, 0, "expected")


@dataclass(frozen=True)
class Estimated:
    position: int
    seat: int | None  # whose view the estimate is made from (None: the game is over)
    expected: list[float]


def estimate_position(done: Replayed, n: int, bot: AnalysisBot, key: str) -> Estimated:
    """Each player's expected final score at position ``n``, seen by the seat to act there."""
    state = done.state_at(n)
    players = int(done.options["players"])
    outcome = rules.outcome(state)
    if outcome is not None:
        return Estimated(n, None, final_scores(outcome, players))
    seat = rules.to_act(state)[0]
    view = rules.view_for(state, seat)
    legal = wire_moves(state, seat)
    expected = bot.expected(view, legal, seat, estimate_seed(key, bot.version))
    return Estimated(n, seat, [round(float(x), 2) for x in expected])


def preferred_at(done: Replayed, n: int, seat: int, bot: AnalysisBot, key: str) -> Preferred:
    """The bot's preferred move for ``seat`` at position ``n`` (wire form), with the events it
    makes and the engine's words-ready summary of it, as a log entry gives them: played on the
    real position (the game is over, nothing is hidden any more)."""
    state = done.state_at(n)
    view = rules.view_for(state, seat)
    legal = wire_moves(state, seat)
    move = bot.preferred(view, legal, seed_for(key, bot.version, n, "preferred"))
    # The game is over: every event is shown whole (the engine's raw events, ``private`` and all).
    events = cast(list[rules.EngineEvent], rules.apply_move(state, seat, move).events)
    entry: rules.LogEntry = {"version": n + 1, "seat": seat, "move": dict(move), "events": events}
    return {
        "move": move,
        "events": events,
        "summary": rules.summarize([entry], None),
    }


def _canonical(move: Mapping[str, object]) -> rules.EncodedMove:
    return cast(rules.EncodedMove, rules.encode_move(rules.decode_move(move)))


def measure_step(
    done: Replayed, step: Step, bot: AnalysisBot, key: str
) -> tuple[Measured, Preferred | None]:
    """Measure one planned step: the cost of the move played at ``step.position`` against the
    bot's preferred move (a swing candidate), and the luck of each seat in ``step.luck``.
    Returns the measure (``cost``: [mean, standard error], or None where the bot prefers the
    move played; ``luck``: seat → [mean, standard error]) and the preferred move (words-ready,
    or None when no swing was measured)."""
    i = step.position
    mover, move, _ = done.moves[i]
    played = _canonical(move)
    before = done.state_at(i)
    seed = seed_for(key, bot.version, i, "measure")
    measured: Measured = {"cost": None, "luck": {}}
    preferred = None
    columns: dict[int, list[list[float]]] = {}  # seat → its samples of the move played
    if step.swing:
        preferred = preferred_at(done, i, mover, bot, key)
        if _canonical(preferred["move"]) == played:
            measured["cost"] = [0.0, 0.0]
        else:
            cols = bot.outcomes(
                rules.view_for(before, mover), mover, mover, [played, preferred["move"]], seed
            )
            cost = paired([r[mover] for r in cols[1]], [r[mover] for r in cols[0]])
            measured["cost"] = cost.rounded() if math.isfinite(cost.se) else None
            columns[mover] = cols[0]
    if step.luck:
        after = done.state_at(i + 1)
        for seat in step.luck:
            if seat not in columns:
                columns[seat] = bot.outcomes(
                    rules.view_for(before, seat), seat, mover, [played], seed
                )[0]
            now = bot.outcomes(rules.view_for(after, seat), seat, seat, [None], seed)[0]
            luck = unpaired([r[seat] for r in now], [r[seat] for r in columns[seat]])
            if math.isfinite(luck.se):  # fewer than two samples the seat's view allowed: none
                measured["luck"][str(seat)] = luck.rounded()
    return measured, preferred


@dataclass(frozen=True)
class Swing:
    seat: int
    position: int  # the position the move led to; the move is number ``position`` (1-based)
    cost: float  # the mover's expected score lost against the bot's preferred move
    noise: float  # the cost's standard error


@dataclass(frozen=True)
class Luck:
    seat: int
    position: int  # the position the chance step led to (move number ``position``)
    change: float  # the seat's expected score gained (negative: lost) by chance
    noise: float


def swings(
    measured: dict[int, Measured], movers: list[int], players: int
) -> dict[int, list[Swing]]:
    """Each player's ``SWINGS_PER_PLAYER`` costliest measured moves whose cost stands well
    above its noise (``Stat.significant``); largest first, ties: the earlier move. A move the
    bot prefers costs 0 and is never one."""
    out: dict[int, list[Swing]] = {seat: [] for seat in range(players)}
    for i, m in sorted(measured.items()):
        pair = m.get("cost")
        if pair is None:
            continue
        cost = Stat(*pair)
        if cost.mean > 0 and cost.significant:
            out[movers[i]].append(Swing(movers[i], i + 1, cost.mean, cost.se))
    for seat, found in out.items():
        found.sort(key=lambda s: (-s.cost, s.position))
        out[seat] = found[:SWINGS_PER_PLAYER]
    return out


def luck(measured: dict[int, Measured], players: int) -> dict[int, list[Luck]]:
    """Each player's measured chance steps that stand well above their noise, the biggest
    (by size) first, ties: the earlier move; all of them (a caller shows the first few)."""
    out: dict[int, list[Luck]] = {seat: [] for seat in range(players)}
    for i, m in sorted(measured.items()):
        for seat, value in (m.get("luck") or {}).items():
            stat = Stat(*value)
            if stat.significant:
                out[int(seat)].append(Luck(int(seat), i + 1, stat.mean, stat.se))
    for found in out.values():
        found.sort(key=lambda x: (-abs(x.change), x.position))
    return out
