"""How long the analysis of a four-player game takes here.

    .venv/bin/python bench/analysis.py [--players 4] [--seed 7] [--playouts N] [--every K]
                                         [--start N --count M]

Plays a game with the engine's greedy player (the same game for the same seed), then analyses it
the way the analysis worker does (app/analysis/compute.py with the strong bot's estimate and
advice, ``--playouts`` a position as the setting ``analysis_playouts``; default: the setting's
default): every position's expected scores, then the swings and luck measured within the bot's
budget (app/analysis/measure.py ``plan``). Prints the wall and CPU time of both parts, per
position and for the whole game.
With ``--every K`` only every K-th position is estimated and the whole game is extrapolated from
them (said so in the output); only moves between two estimated positions are then measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.analysis.bot import ADVICE_PLAYOUTS, StrongBot
from app.analysis.compute import estimate_position, measure_step
from app.analysis.measure import plan
from app.config import Settings
from app.records.replay import replay_record
from app.rules.simulate import play_greedy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--playouts", type=int, default=Settings().analysis_playouts)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first position estimated")
    ap.add_argument("--count", type=int, default=0, help="positions estimated (0: to the end)")
    args = ap.parse_args()

    _, moves, _ = play_greedy(args.seed, {"players": args.players, "start_player": 0})
    done = replay_record(
        args.seed,
        {"players": args.players, "start_player": 0},
        [(m["seat"], m["move"], None) for m in moves],
    )
    bot = StrongBot(args.playouts)
    key = f"bench-{args.players}-{args.seed}"
    end = done.positions if not args.count else min(done.positions, args.start + args.count)
    picks = list(range(args.start, end, max(1, args.every)))
    if not args.count and picks[-1] != done.positions - 1:
        picks.append(done.positions - 1)
    print(
        f"{args.players} players, seed {args.seed}: {done.positions} positions; "
        f"bot {bot.version}; estimating {len(picks)} of them"
    )
    wall, cpu = time.perf_counter(), time.process_time()
    expected = {}
    for n in picks:
        expected[n] = estimate_position(done, n, bot, key).expected
    est_wall, est_cpu = time.perf_counter() - wall, time.process_time() - cpu
    per_wall, per_cpu = est_wall / len(picks), est_cpu / len(picks)

    movers = [seat for seat, _, _ in done.moves]
    wall, cpu = time.perf_counter(), time.process_time()
    steps = plan(
        expected, movers, done.events, args.players, bot.samples, bot.budget, ADVICE_PLAYOUTS
    )
    for step in steps:
        measure_step(done, step, bot, key)
    advised = len(steps)
    adv_wall, adv_cpu = time.perf_counter() - wall, time.process_time() - cpu

    print(f"estimates: {per_wall:.3f} s wall, {per_cpu:.3f} s CPU a position")
    if args.every == 1 and len(picks) > 2:
        # how steady the lines are: the mean change of an expected score from one position to
        # the next (the game's changes plus the estimate's noise; lower is steadier)
        steps = [
            abs(expected[b][s] - expected[a][s])
            for a, b in pairwise(picks)
            if b != done.positions - 1
            for s in range(args.players)
        ]
        print(f"mean step of an expected score between positions: {sum(steps) / len(steps):.2f}")
    total_wall = per_wall * done.positions + adv_wall
    total_cpu = per_cpu * done.positions + adv_cpu
    print(
        f"swings and luck measured at {advised} positions: {adv_wall:.1f} s wall, "
        f"{adv_cpu:.1f} s CPU"
    )
    how = "measured" if len(picks) == done.positions else "extrapolated from the sample"
    print(
        f"whole game ({how}): {total_wall:.0f} s wall, {total_cpu:.0f} s CPU "
        f"({total_wall / 60:.1f} min)"
    )


if __name__ == "__main__":
    main()
