"""The yardstick: our strong bot against OpenSpiel's search bots, at equal CPU per move.

    .venv/bin/python bench/yardstick.py [--players 2|4] [--one-seat] [--games N] [--first G]
                                         [--budget S] [--turn-budget S] [--opponent mcts|ismcts]
                                         [--simulations N] [--max-minutes M] [--verbose]

Each game is an OpenSpiel game of ``python_emara`` (app/research/openspiel_game.py), dealt with
seed ``50_000 + players * 1000 + g`` (chance outcome of a one-deal game at that seed base), so
every run with the same arguments plays the same deals. Seats: heads-up, ours and OpenSpiel's
bot one each; four seats, two of each, alternating (``--one-seat``: ours at one seat, OpenSpiel's
at the other three); game ``g`` rotates the seating by ``g`` seats, so each of our seats sits
everywhere equally often.

Equal CPU. Ours is the live bot, its budget (``--budget`` a move, ``--turn-budget`` a turn: the
live 0.12 s and 0.35 s by default) read from this thread's CPU time, so machine load changes
nothing. OpenSpiel's bot counts simulations, not time: at the start of the run a calibration game
(deal seed ``59_000 + players``, not one of the match's) is played by ours at every seat; at
every ``--probe-every``-th position where ours searched, OpenSpiel's bot searches too with
``--probe`` simulations. Its CPU per simulation over those positions and our mean CPU a searched
move give the simulation count that spends, on the mean, our CPU a move; that count is then fixed
for the whole run (``--simulations`` skips the calibration). A move with a single legal action
costs nobody anything. Both means are printed for the calibration and for the match.

Prints, per side: games where one of its seats is first (a shared first place counts half), as a
rate with a 95 % Wilson interval; the games its seat is first alone; its mean score.
``--max-minutes`` starts no new game after that much wall time: the summary counts the games
played (a shorter run on a busy machine, stated as such).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from statistics import mean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pyspiel

from app import rules
from app.bots import choose_move
from app.bots.policy import DEFAULT_BUDGET, TURN_BUDGET, TurnTimer
from app.research import actions, openspiel_game
from app.research.openspiel_bots import KINDS, Fixed, search_bot

CALIBRATION_DEAL = 59_000


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


class Ours:
    """The strong bot as it plays live, its budget read from this thread's CPU time."""

    def __init__(self, budget: float, turn_budget: float, players: int) -> None:
        self.budget = budget
        self.timers = [TurnTimer(turn_budget, budget, time.thread_time) for _ in range(players)]
        self.cpu: list[float] = []

    def step(self, state: pyspiel.State, seed: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        engine = state.engine
        seat = state.current_player()
        view = dict(rules.view_for(engine, seat))
        start = time.thread_time()
        think = self.timers[seat].budget(view)
        moves = [actions.move_of(a) for a in legal]
        move = choose_move(view, moves, "strong", seed, think, None, time.thread_time)
        self.cpu.append(time.thread_time() - start)
        return actions.action_of(move)


def _game(players: int, base: int) -> Any:
    return pyspiel.load_game(
        openspiel_game.SHORT_NAME,
        {"players": players, "reward": "win", "deals": 1, "seed_base": base},
    )


def calibrate(args: argparse.Namespace) -> tuple[int, float, float]:
    """(simulations, our mean CPU a searched move, their CPU a simulation): one game played by
    ours at every seat, OpenSpiel's bot probing every ``probe_every``-th searched position."""
    base = CALIBRATION_DEAL + args.players
    game = _game(args.players, base)
    ours = Ours(args.budget, args.turn_budget, args.players)
    probe = search_bot(game, args.opponent, args.probe, np.random.RandomState(base))
    theirs: list[float] = []
    state = game.new_initial_state()
    state.apply_action(0)
    n = 0
    while not state.is_terminal():
        searched = len(ours.cpu)
        action = ours.step(state, base * 1000 + n)
        if len(ours.cpu) > searched and searched % args.probe_every == 0:
            start = time.thread_time()
            probe.step(state.clone())
            theirs.append(time.thread_time() - start)
        state.apply_action(action)
        n += 1
    per_sim = mean(theirs) / max(2, args.probe)
    our_mean = mean(ours.cpu)
    return max(2, round(our_mean / per_sim)), our_mean, per_sim


def play(
    args: argparse.Namespace, g: int, simulations: int, ours: Ours, their_cpu: list[float]
) -> tuple[list[str], dict[str, Any]]:
    players = args.players
    base = 50_000 + players * 1000 + g
    game = _game(players, base)
    theirs = Fixed(game, args.opponent, simulations, seed=base)
    if args.one_seat:
        sides = ["ours" if s == g % players else "openspiel" for s in range(players)]
    else:
        sides = ["ours" if (s + g) % 2 == 0 else "openspiel" for s in range(players)]
    ours.timers = [TurnTimer(args.turn_budget, args.budget, time.thread_time) for _ in sides]
    state = game.new_initial_state()
    state.apply_action(0)
    n = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = ours.step(state, base * 1000 + n) if sides[seat] == "ours" else theirs.step(state)
        state.apply_action(action)
        n += 1
    out = rules.outcome(state.engine)
    assert out is not None
    their_cpu.extend(theirs.cpu)
    return sides, dict(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, choices=(2, 4), default=2)
    ap.add_argument("--one-seat", action="store_true", help="four seats: ours at one seat only")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="number of the first game (its deal)")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="our CPU s a move")
    ap.add_argument("--turn-budget", type=float, default=TURN_BUDGET, help="our CPU s a turn")
    ap.add_argument("--opponent", choices=KINDS, default="mcts")
    ap.add_argument("--simulations", type=int, default=None, help="skip the calibration")
    ap.add_argument("--probe", type=int, default=8, help="calibration: simulations a probe")
    ap.add_argument("--probe-every", type=int, default=3, help="calibration: probe every n-th")
    ap.add_argument(
        "--max-minutes", type=float, default=None, help="start no game after this long (wall)"
    )
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    started = time.monotonic()
    seating = "heads-up" if args.players == 2 else "two seats each, alternating"
    if args.one_seat and args.players == 4:
        seating = "ours at one seat, OpenSpiel's at three"
    print(
        f"Yardstick: strong vs OpenSpiel {args.opponent}, {args.players} seats ({seating}); "
        f"ours {args.budget}s CPU a move, {args.turn_budget}s a turn",
        flush=True,
    )
    if args.simulations is None:
        sims, our_mean, per_sim = calibrate(args)
        print(
            f"  calibration (deal seed {CALIBRATION_DEAL + args.players}): ours "
            f"{1000 * our_mean:.1f} ms CPU a searched move; OpenSpiel {1000 * per_sim:.2f} ms "
            f"a simulation -> {sims} simulations a move",
            flush=True,
        )
    else:
        sims = args.simulations
    ours = Ours(args.budget, args.turn_budget, args.players)
    their_cpu: list[float] = []
    first = {"ours": 0.0, "openspiel": 0.0}
    alone = {"ours": 0, "openspiel": 0}
    scores: dict[str, list[int]] = {"ours": [], "openspiel": []}
    n = 0
    for g in range(args.first, args.first + args.games):
        if args.max_minutes is not None and time.monotonic() - started > 60 * args.max_minutes:
            print(f"  stopped after {args.max_minutes} minutes: {n} games played", flush=True)
            break
        sides, out = play(args, g, sims, ours, their_cpu)
        n += 1
        best = min(p["rank"] for p in out["players"])
        top = [p for p in out["players"] if p["rank"] == best]
        for p in top:
            first[sides[p["seat"]]] += 1 / len(top)
        if len(top) == 1:
            alone[sides[top[0]["seat"]]] += 1
        for p in out["players"]:
            scores[sides[p["seat"]]].append(int(p["score"]))
        if args.verbose:
            line = ", ".join(f"{sides[p['seat']]} {p['score']}" for p in out["players"])
            print(f"  game {g}: {line}", flush=True)
    if n == 0:
        return
    lo_seed = 50_000 + args.players * 1000 + args.first
    print(
        f"  games {args.first}-{args.first + n - 1} (deal seeds {lo_seed}-{lo_seed + n - 1}), "
        f"OpenSpiel {sims} simulations a move"
    )
    for side in ("ours", "openspiel"):
        lo, hi = wilson(first[side], n)
        print(
            f"  {side}: first in {first[side]:.1f}/{n} = {100 * first[side] / n:.0f}% "
            f"(95% Wilson {100 * lo:.0f}-{100 * hi:.0f}%), first alone {alone[side]}/{n}, "
            f"mean score {mean(scores[side]):.1f}"
        )
    print(
        f"  CPU a searched move: ours {1000 * mean(ours.cpu or [0]):.1f} ms "
        f"({len(ours.cpu)} moves), OpenSpiel {1000 * mean(their_cpu or [0]):.1f} ms "
        f"({len(their_cpu)} moves); {time.monotonic() - started:.0f} s in all",
        flush=True,
    )


if __name__ == "__main__":
    main()
