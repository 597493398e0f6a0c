"""How noisy the analysis's numbers are: an expected score, and a swing (a difference of two).

    .venv/bin/python -m bench.analysis_noise [--record docs/records.example.json]
                                             [--samples 32] [--every 25] [--playouts 2]

At every ``--every``-th position of a finished game where the seat to act has a choice, plays
out, from that seat's own view, the move played and another legal move (the next one in the
engine's list) ``--samples`` times each with common random numbers (``app.bots.estimate.
outcomes``, as the analysis measures a swing). Prints, averaged over the positions:

- the standard deviation of one playout's final score of the mover (an estimate's spread),
- the standard error of an expected score at ``--playouts`` (the curve's setting) and at
  ``--samples`` (a measured position),
- the standard deviation of one sample's difference between the two moves, with common random
  numbers and (for comparison) without them,
- the standard error of a swing at ``--samples``, and the samples a swing of 2, 3 and 5 points
  needs to stand 3 standard errors above its noise,
- the CPU time of one playout.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import rules
from app.analysis.source import replay_of
from app.bots.estimate import outcomes

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "records.example.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--record", type=Path, default=EXAMPLE)
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--playouts", type=int, default=2)
    args = ap.parse_args()

    record: dict[str, Any] = json.loads(args.record.read_text(encoding="utf-8"))
    done = replay_of(record)
    spread, crn, independent = [], [], []
    playouts, cpu = 0, 0.0
    for i in range(args.every, done.positions - 1, args.every):
        state = done.state_at(i)
        seat = rules.to_act(state)[0]
        legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
        played = rules.encode_move(rules.decode_move(done.moves[i][1]))
        others = [m for m in legal if m != played]
        if not others:
            continue
        view: dict[str, Any] = dict(rules.view_for(state, seat))  # type: ignore[arg-type]
        t = time.process_time()
        a, b = outcomes(view, seat, [played, others[0]], args.samples, 1000 + i)
        (c,) = outcomes(view, seat, [others[0]], args.samples, 2000 + i)
        cpu += time.process_time() - t
        playouts += 3 * args.samples
        mine_a, mine_b, mine_c = ([r[seat] for r in col] for col in (a, b, c))
        if len(mine_a) < 2:
            continue
        spread.append(statistics.stdev(mine_a))
        crn.append(statistics.stdev([x - y for x, y in zip(mine_a, mine_b, strict=True)]))
        independent.append(statistics.stdev([x - y for x, y in zip(mine_a, mine_c, strict=False)]))
    k = args.samples
    sd, sd_crn, sd_ind = (statistics.fmean(x) for x in (spread, crn, independent))
    print(f"record {args.record.name}: {len(spread)} positions measured, {k} samples each")
    print(f"one playout's final score of the mover: standard deviation {sd:.2f}")
    print(
        f"an expected score: standard error {sd / math.sqrt(args.playouts):.2f} at "
        f"{args.playouts} playouts (the curve), {sd / math.sqrt(k):.2f} at {k}"
    )
    print(
        f"a difference of two moves, one sample: standard deviation {sd_crn:.2f} with common "
        f"random numbers, {sd_ind:.2f} without"
    )
    print(f"a swing at {k} samples: standard error {sd_crn / math.sqrt(k):.2f}")
    for points in (2, 3, 5):
        need = math.ceil((3 * sd_crn / points) ** 2)
        print(f"a swing of {points} points is 3 standard errors at {need} samples")
    print(f"CPU a playout: {cpu / max(1, playouts):.3f} s")


if __name__ == "__main__":
    main()
