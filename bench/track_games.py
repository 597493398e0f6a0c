"""Games for the strong bot's table value: one strong seat, three greedy, every position kept.

    .venv/bin/python bench/track_games.py --first 0 --games 300 --out /tmp/tracks-0.jsonl

Plays four-player tables (game g: seed 1_020_000 + g, the strong seat and the start seat g % 4)
with the strong bot at the live budget read from the thread's CPU time (0.12 s a move, 0.35 s a
turn), and writes one JSON line per position where a seat is to move during the turns: the seat,
its level, the round and the turns it has left, its part of the state (what
`app.bots.tracks.features` and `app.bots.value.estimate` read) and,
once the game is over, its final tracks and leftover points. `bench/fit_tracks.py` fits the
model on these lines. Run two at a time with different --first on a two-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import rules
from app.bots import choose_move, tracks
from app.bots.policy import DEFAULT_BUDGET, TURN_BUDGET, TurnTimer

SEED_BASE = 1_020_000
# The parts of a seat's state kept: what `tracks.features` and `value.estimate` read.
OWN = ("cp", "bp", "res", "goods", "craftsmen", "advisors", "titles", "favor", "turns_taken")
OWN += ("hand", "deck", "played", "slots")


def play(g: int) -> list[dict[str, Any]]:
    """One game's positions, each labelled with the seat's final result."""
    seed = SEED_BASE + g
    strong = g % 4
    levels = ["strong" if s == strong else "greedy" for s in range(4)]
    state = rules.new_game(seed, {"players": 4, "start_player": g % 4})
    timers = [TurnTimer(TURN_BUDGET, DEFAULT_BUDGET, time.thread_time) for _ in levels]
    rows: list[dict[str, Any]] = []
    n = 0
    while rules.outcome(state) is None:
        seat = rules.to_act(state)[0]
        st = state.tree
        if st["phase"] == "turns":
            p = st["ps"][seat]
            rows.append(
                {
                    "seed": seed,
                    "seat": seat,
                    "level": levels[seat],
                    "round": st["round"],
                    "left": tracks.turns_left(st, seat),
                    "p": {k: p[k] for k in OWN},
                }
            )
        view = rules.view_for(state, seat)
        legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
        think = timers[seat].budget(view) if levels[seat] == "strong" else None
        move = choose_move(
            view, legal, levels[seat], seed * 100_003 + n, think, None, time.thread_time
        )
        state = rules.apply_move(state, seat, move).state
        n += 1
    outcome = rules.outcome(state)
    assert outcome is not None
    final = {p["seat"]: p for p in outcome["players"]}
    for row in rows:
        f = final[row["seat"]]
        row.update(
            final_cp=f["cp"] - f["leftover"]["to_cp"],
            final_bp=f["bp"] - f["leftover"]["to_bp"],
            leftover=f["leftover"]["points"],
            score=f["score"],
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    with args.out.open("a") as out:
        for g in range(args.first, args.first + args.games):
            cpu = time.process_time()
            for row in play(g):
                out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"game {g}: {time.process_time() - cpu:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
