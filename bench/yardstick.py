"""The yardstick: our strong bot against OpenSpiel's search bots, at equal CPU per move.

    .venv/bin/python bench/yardstick.py [--players 2|4] [--games N] [--first G] [--budget S]
                                         [--opponent mcts|ismcts] [--verbose]

Each game is an OpenSpiel game of ``python_emara`` (app/research/openspiel_game.py), dealt with
seed ``50_000 + players * 1000 + g`` (chance outcome of a one-deal game at that seed base), so
every run with the same arguments plays the same deals. Seats: heads-up, ours and OpenSpiel's
bot one each; four seats, two of each, alternating; game ``g`` rotates the seating by ``g``
seats, so each of our seats sits everywhere equally often.

Both sides get ``--budget`` seconds of CPU a move (default 0.12, the live budget): ours through
``choose_move``'s own budget (a wall-clock cap, so never more CPU than that), OpenSpiel's by
``app.research.openspiel_bots.Budgeted`` (as many simulations as the budget buys, calibrated on
its own earlier moves). A move with a single legal action costs nobody anything. The mean CPU a
move each side really used is printed, so the budgets can be compared.

Prints, per side: games where one of its seats is first (a shared first place counts half), as a
rate with a 95 % Wilson interval; the games its seat is first alone; its mean score.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel

from app import rules
from app.bots import choose_move
from app.research import actions, openspiel_game
from app.research.openspiel_bots import KINDS, Budgeted


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
    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.cpu: list[float] = []

    def step(self, state: pyspiel.State, seed: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        engine = state.engine
        seat = state.current_player()
        start = time.process_time()
        move = choose_move(
            dict(rules.view_for(engine, seat)),
            [actions.move_of(a) for a in legal],
            "strong",
            seed,
            self.budget,
        )
        self.cpu.append(time.process_time() - start)
        return actions.action_of(move)


def play(players: int, g: int, budget: float, opponent: str, ours: Ours) -> tuple[list[str], dict]:
    base = 50_000 + players * 1000 + g
    game = pyspiel.load_game(
        openspiel_game.SHORT_NAME,
        {"players": players, "reward": "win", "deals": 1, "seed_base": base},
    )
    theirs = Budgeted(game, opponent, budget, seed=base)
    sides = ["ours" if (s + g) % 2 == 0 else "openspiel" for s in range(players)]
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
    play.their_cpu.extend(theirs.cpu)  # type: ignore[attr-defined]
    return sides, dict(out)


play.their_cpu = []  # type: ignore[attr-defined]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, choices=(2, 4), default=2)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="number of the first game (its deal)")
    ap.add_argument("--budget", type=float, default=0.12, help="CPU seconds a move, each side")
    ap.add_argument("--opponent", choices=KINDS, default="mcts")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    ours = Ours(args.budget)
    first = {"ours": 0.0, "openspiel": 0.0}
    alone = {"ours": 0, "openspiel": 0}
    scores: dict[str, list[int]] = {"ours": [], "openspiel": []}
    started = time.monotonic()
    games = range(args.first, args.first + args.games)
    for g in games:
        sides, out = play(args.players, g, args.budget, args.opponent, ours)
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
    n = args.games
    print(
        f"Yardstick: strong vs OpenSpiel {args.opponent}, {args.players} seats, games "
        f"{args.first}-{args.first + n - 1} (deal seeds {50_000 + args.players * 1000 + args.first}"
        f"-{50_000 + args.players * 1000 + args.first + n - 1}), {args.budget}s CPU a move each"
    )
    for side in ("ours", "openspiel"):
        lo, hi = wilson(first[side], n)
        print(
            f"  {side}: first in {first[side]:.1f}/{n} = {100 * first[side] / n:.0f}% "
            f"(95% CI {100 * lo:.0f}-{100 * hi:.0f}%), first alone {alone[side]}/{n}, "
            f"mean score {mean(scores[side]):.1f}"
        )
    theirs = play.their_cpu  # type: ignore[attr-defined]
    print(
        f"  CPU a searched move: ours {1000 * mean(ours.cpu or [0]):.0f} ms "
        f"({len(ours.cpu)} moves), OpenSpiel {1000 * mean(theirs or [0]):.0f} ms "
        f"({len(theirs)} moves); {time.monotonic() - started:.0f} s in all",
        flush=True,
    )


if __name__ == "__main__":
    main()
