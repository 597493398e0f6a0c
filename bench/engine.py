"""Rules-engine throughput: random complete games per second and moves per second (one core).

Each figure is the median of 5 runs, timed in process CPU time (so other load on the
machine does not count). A run plays GAMES complete games with a seeded random
player (uniform over ``legal_moves``), so the work done is the same from run to run.

    .venv/bin/python bench/engine.py [--games N] [--runs R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rules import apply_move, legal_moves, new_game, to_act


def play(seed: int, players: int) -> tuple[int, int]:
    """Play one random game; return (moves applied, legal_moves calls)."""
    rng = random.Random(seed)
    state = new_game(seed, {"players": players})
    moves = calls = 0
    while True:
        seats = to_act(state)
        if not seats:
            return moves, calls
        seat = seats[0]
        options = legal_moves(state, seat)
        calls += 1
        state = apply_move(state, seat, options[int(rng.random() * len(options))]).state
        moves += 1


def run(players: int, games: int) -> tuple[float, float]:
    start = time.process_time()
    total = 0
    for g in range(games):
        m, _ = play(1000 + g, players)
        total += m
    elapsed = time.process_time() - start
    return games / elapsed, total / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"random complete games, {args.games} per run, median of {args.runs} runs, one core")
    print(f"{'players':>7} | {'games/s':>8} | {'moves/s':>9}")
    print("-" * 31)
    for players in (1, 2, 3, 4):
        results = [run(players, args.games) for _ in range(args.runs)]
        gps = statistics.median(r[0] for r in results)
        mps = statistics.median(r[1] for r in results)
        print(f"{players:>7} | {gps:>8.1f} | {mps:>9.0f}")


if __name__ == "__main__":
    main()
