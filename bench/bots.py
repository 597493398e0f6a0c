"""Bot strength: solo games against Victoria and bot-against-bot tables.

    .venv/bin/python bench/bots.py [--games N] [--budget SECONDS_PER_MOVE] [--playouts N]
                                     [--starts 40,30,20] [--pairs strong-greedy,...]
                                     [--verbose] [--skip-solo] [--skip-tables] [--players 2|3|4]
                                     [--one-seat] [--seed-offset N] [--cpu-clock]

With --playouts the strong bot thinks a fixed number of playouts a move and never looks at the
clock: the figures are the same on every run and every machine (the time is still measured).

Solo: the strong bot plays N games at each building start value 40, 30 and 20; prints the win rate
against Victoria and the mean score. Tables: for each pair of levels, N four-player games with two
seats of each level (seats alternate, the start seat rotates; --players 2 plays the two levels
heads-up, --players 3 alternates them seat by seat); prints how often each level takes
first place (a shared first place counts half), how often one of its seats is first alone
("strictly first"), and its mean score, plus the slowest bot turn seen. --one-seat seats the first
level of a pair at one seat only (rotating with the game) against the second level at every other
seat: `--pairs strong-greedy --one-seat` is one strong bot against three greedy ones.

--seed-offset N adds N to every game's seed: fresh positions, never the ones the bots were tuned
on (the default seeds are those of the figures in docs/bots.md).

--cpu-clock reads the strong bot's budget (0.12 s a move, 0.35 s a turn by default) from the
thread's CPU time instead of the wall clock: on a machine shared with other jobs the bot then
thinks as much as the live budget lets it on an idle one, and the run measures the bot, not the
load.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from statistics import mean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import rules
from app.bots import choose_move
from app.bots.policy import DEFAULT_BUDGET, TURN_BUDGET, TurnTimer

# The clock the strong bot's budget is read from: the monotonic clock, as live, or (--cpu-clock)
# this thread's CPU time, so a loaded machine gives the bot what an idle one would.
THINK_CLOCK = [time.monotonic]


class Clock:
    """Thinking time of the strong seats (of every seat when none is strong): wall and CPU."""

    def __init__(self) -> None:
        self.turn_started: dict[int, float] = {}
        self.turn_time: dict[int, float] = {}
        self.turn_cpu: dict[int, float] = {}
        self.longest_turn = 0.0
        self.turns: list[float] = []
        self.turns_cpu: list[float] = []
        self.moves = 0
        self.move_time = 0.0
        self.cpu_time = 0.0

    def add(self, seat: int, elapsed: float, cpu: float, ended_turn: bool) -> None:
        self.moves += 1
        self.move_time += elapsed
        self.cpu_time += cpu
        self.turn_time[seat] = self.turn_time.get(seat, 0.0) + elapsed
        self.turn_cpu[seat] = self.turn_cpu.get(seat, 0.0) + cpu
        if ended_turn:
            self.turns_cpu.append(self.turn_cpu.pop(seat, 0.0))
            spent = self.turn_time.pop(seat, 0.0)
            self.turns.append(spent)
            self.longest_turn = max(self.longest_turn, spent)

    @staticmethod
    def p95(times: list[float]) -> float:
        if not times:
            return 0.0
        ordered = sorted(times)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    def summary(self) -> str:
        n = max(self.moves, 1)
        return (
            f"{self.moves} moves, mean {1000 * self.move_time / n:.0f} ms/move "
            f"(CPU {1000 * self.cpu_time / n:.0f} ms), "
            f"turns: 95% under {self.p95(self.turns):.2f} s, "
            f"slowest {self.longest_turn:.2f} s (CPU: 95% under {self.p95(self.turns_cpu):.2f} s, "
            f"slowest {max(self.turns_cpu, default=0.0):.2f} s)"
        )


def play(
    seed: int,
    options: dict[str, Any],
    levels: list[str],
    budget: float | None,
    clock: Clock,
    playouts: int | None = None,
) -> dict[str, Any]:
    state = rules.new_game(seed, options)
    timers = [TurnTimer(TURN_BUDGET, budget or 0.0, THINK_CLOCK[0]) for _ in levels]
    n = 0
    while rules.outcome(state) is None:
        seats = list(rules.to_act(state))
        if not seats:
            raise RuntimeError("no seat to act and no outcome")
        seat = seats[0]
        view = rules.view_for(state, seat)
        legal = [
            m if isinstance(m, dict) else rules.encode_move(m)
            for m in rules.legal_moves(state, seat)
        ]
        t0, c0 = time.monotonic(), time.process_time()
        think = None if playouts is not None else timers[seat].budget(view)
        move = choose_move(
            view, legal, levels[seat], seed * 100_003 + n, think, playouts, THINK_CLOCK[0]
        )
        if levels[seat] == "strong" or "strong" not in levels:
            ended = move.get("kind") == "end_turn"
            clock.add(seat, time.monotonic() - t0, time.process_time() - c0, ended)
        state = rules.apply_move(state, seat, move).state
        n += 1
    result: dict[str, Any] = rules.outcome(state)
    return result


def _limit(budget: float, playouts: int | None) -> str:
    if playouts is not None:
        return f"{playouts} playouts/move, no clock"
    cpu = " of CPU" if THINK_CLOCK[0] is not time.monotonic else ""
    return f"budget {budget}s{cpu}/move, {TURN_BUDGET}s{cpu}/turn"


def solo(
    games: int,
    budget: float,
    playouts: int | None,
    starts: list[int],
    verbose: bool = False,
    offset: int = 0,
) -> None:
    print(
        f"Solo, strong bot against Victoria ({games} games per start value, "
        f"{_limit(budget, playouts)})"
    )
    clock = Clock()
    for start in starts:
        wins = 0
        scores: list[int] = []
        hers: list[int] = []
        for g in range(games):
            out = play(
                offset + 10_000 + start * 1000 + g,
                {"players": 1, "building_start": start},
                ["strong"],
                budget,
                clock,
                playouts,
            )
            wins += bool(out.get("won"))
            scores.append(int(out["players"][0]["score"]))
            hers.append(int((out.get("victoria") or {}).get("score", 0)))
            if verbose:
                print(f"    game {g + 1}: {scores[-1]} against {hers[-1]}", flush=True)
        print(
            f"  start {start}: won {wins}/{games} ({100 * wins / games:.0f}%), "
            f"mean score {mean(scores):.1f} (Victoria {mean(hers):.1f})",
            flush=True,
        )
    print(f"  strong: {clock.summary()}")


def tables(
    games: int,
    budget: float,
    playouts: int | None,
    pairs: list[tuple[str, str]],
    verbose: bool = False,
    players: int = 4,
    one_seat: bool = False,
    offset: int = 0,
) -> None:
    seating = {
        2: "Two-player tables, one seat per level (heads-up)",
        3: "Three-player tables, the levels alternating seat by seat",
        4: "Four-player tables, two seats per level",
    }[players]
    if one_seat:
        seating = f"{players}-player tables, the first level at one seat, the second at the rest"
    print(f"{seating} ({games} games per pair, {_limit(budget, playouts)}, seeds +{offset})")
    for a, b in pairs:
        clock = Clock()
        points = {a: 0.0, b: 0.0}
        alone = {a: 0, b: 0}
        scores: dict[str, list[int]] = {a: [], b: []}
        for g in range(games):
            first_level, second_level = (a, b) if g % 2 == 0 else (b, a)
            levels = [first_level if s % 2 == 0 else second_level for s in range(players)]
            if one_seat:
                levels = [a if s == g % players else b for s in range(players)]
            options = {"players": players, "start_player": g % players}
            seed = offset + (20_000 + g if players == 4 else 20_000 + 1000 * players + g)
            out = play(seed, options, levels, budget, clock, playouts)
            ranked = out["players"]
            best = min(p["rank"] for p in ranked)
            first = [p for p in ranked if p["rank"] == best]
            for p in first:
                points[levels[p["seat"]]] += 1.0 / len(first)
            if len(first) == 1:
                alone[levels[first[0]["seat"]]] += 1
            for p in ranked:
                scores[levels[p["seat"]]].append(int(p["score"]))
            if verbose:
                won = levels[first[0]["seat"]] if len(first) == 1 else "shared"
                seats = ", ".join(
                    f"{levels[p['seat']]}@{p['seat']} {p['score']} ({p['cp']}/{p['bp']})"
                    for p in sorted(ranked, key=lambda p: p["rank"])
                )
                print(
                    f"    game {g + 1} (seed {seed}): first {won}, "
                    f"{points[a]:.1f} to {points[b]:.1f}; {seats}",
                    flush=True,
                )
        print(
            f"  {a} vs {b}: {a} wins {100 * points[a] / games:.0f}%, "
            f"{b} wins {100 * points[b] / games:.0f}%; "
            f"strictly first: {a} {alone[a]}/{games}, {b} {alone[b]}/{games}; "
            f"mean score {a} {mean(scores[a]):.1f}, {b} {mean(scores[b]):.1f}; "
            f"{'strong' if 'strong' in (a, b) else 'bot'} thinking: {clock.summary()}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    ap.add_argument("--playouts", type=int, default=None)
    ap.add_argument("--starts", default="40,30,20")
    ap.add_argument("--pairs", default="strong-greedy,greedy-random,strong-random")
    ap.add_argument("--verbose", action="store_true", help="a line per game")
    ap.add_argument("--skip-solo", action="store_true")
    ap.add_argument("--skip-tables", action="store_true")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="seats at each table")
    ap.add_argument("--one-seat", action="store_true", help="the first level at one seat only")
    ap.add_argument("--seed-offset", type=int, default=0, help="added to every game's seed")
    ap.add_argument(
        "--cpu-clock",
        action="store_true",
        help="read the budget from this thread's CPU time (an idle machine's live budget)",
    )
    args = ap.parse_args()
    if args.cpu_clock:
        THINK_CLOCK[0] = time.thread_time
    if not args.skip_solo:
        solo(
            args.games,
            args.budget,
            args.playouts,
            [int(s) for s in args.starts.split(",")],
            args.verbose,
            args.seed_offset,
        )
    if not args.skip_tables:
        pairs = [(p.split("-")[0], p.split("-")[1]) for p in args.pairs.split(",")]
        tables(
            args.games,
            args.budget,
            args.playouts,
            pairs,
            args.verbose,
            args.players,
            args.one_seat,
            args.seed_offset,
        )


if __name__ == "__main__":
    main()
