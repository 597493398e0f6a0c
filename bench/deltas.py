"""What a delta costs and saves, over whole games (no server: the feed's own functions).

    .venv/bin/python bench/deltas.py                # four players, 3 games
    .venv/bin/python bench/deltas.py --players 2 --games 5

For every version of each game and every seat and a spectator: the bytes of the whole ``update``
frame and of the ``delta`` frame that replaces it, the CPU time of ``diff`` (app/tables/delta.py)
and of ``jsonpatch.make_patch`` on the same documents, the time of a ``digest``, and the time to
render all seats at once (``render_all``) against one render per seat.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import rules  # noqa: E402
from app.realtime.frames import trusted, wire  # noqa: E402
from app.tables.delta import DOC_FIELDS, diff, digest  # noqa: E402
from app.tables.frames import Delta, Update  # noqa: E402
from app.tables.render import render, render_all  # noqa: E402


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    ending = [m for m in legal if m["kind"] == "end_turn"]
    return ending[0] if ending and rng.random() < 0.7 else rng.choice(legal)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    try:
        import jsonpatch
    except ImportError:  # a dev dependency
        jsonpatch = None
    full_bytes = delta_bytes = frames = 0
    t_diff = t_lib = t_digest = t_each = t_all = 0.0
    versions = 0
    for g in range(args.games):
        rng = random.Random(g)
        state = rules.new_game(100 + g, {"players": args.players})
        seats: list[int | None] = [*range(args.players), None]
        before: dict[int | None, dict[str, Any]] = {}
        version = 0
        while True:
            t0 = time.process_time()
            for seat in seats:
                render(state, version, seat)
            t1 = time.process_time()
            renders = render_all(state, version, seats)
            t2 = time.process_time()
            t_each += t1 - t0
            t_all += t2 - t1
            versions += 1
            for seat in seats:
                r = renders[seat]
                doc = {**r, "status": "playing", "seats": [], "clock": None}
                doc = {k: doc[k] for k in DOC_FIELDS}
                if seat in before:
                    moves: list[Any] = []
                    head = {"version": version, "seat": seat, "since": version - 1, "moves": moves}
                    full = wire(trusted(Update, {**doc, **head}))
                    a = time.process_time()
                    patch = diff(before[seat], doc)
                    b = time.process_time()
                    if jsonpatch is not None:
                        jsonpatch.make_patch(before[seat], doc)
                    c = time.process_time()
                    digest(doc)  # type: ignore[arg-type]
                    d = time.process_time()
                    t_diff += b - a
                    t_lib += c - b
                    t_digest += d - c
                    lean = wire(trusted(Delta, {**head, "patch": patch}))
                    full_bytes += len(full.encode())
                    delta_bytes += len(lean.encode())
                    frames += 1
                before[seat] = doc
            acting = rules.to_act(state)
            if not acting:
                break
            legal = [rules.encode_move(m) for m in rules.legal_moves(state, acting[0])]
            state = rules.apply_move(state, acting[0], pick(legal, rng)).state
            version += 1
    n = max(frames, 1)
    per_version = len(seats)
    print(f"{args.games} games of {args.players} players, {versions} versions, {frames} frames")
    print(
        f"update frame {full_bytes / n:7.0f} B   delta frame {delta_bytes / n:6.0f} B   "
        f"({delta_bytes / max(full_bytes, 1):.1%}); per move to {per_version} sockets "
        f"(seats and one spectator, game part only): {full_bytes / n * per_version:.0f} B → "
        f"{delta_bytes / n * per_version:.0f} B"
    )
    lib = f"{t_lib / n * 1e3:.3f} ms" if jsonpatch is not None else "n/a (no jsonpatch)"
    print(f"diff {t_diff / n * 1e3:.3f} ms   jsonpatch.make_patch {lib}   digest "
          f"{t_digest / n * 1e3:.3f} ms (sent on 1 version in 8)")  # fmt: skip
    print(
        f"render each seat alone {t_each / versions * 1e3:.3f} ms   all {per_version} at once "
        f"{t_all / versions * 1e3:.3f} ms (per version)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
