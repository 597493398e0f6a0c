"""Two checkouts of the server measured side by side: the same load on both, in the same minutes.

    .venv/bin/python bench/ab.py /tmp/before -- --tables 15 --seconds 25 --rate 0 --no-ceiling
    .venv/bin/python bench/ab.py /tmp/before --rounds 3 -- --sqlite --tables 15 --rate 0

This machine's speed drifts (bench/machine.py), so two runs made one after the other compare the
minutes as much as the code. Here ``bench/load.py`` of each checkout (this one and the one named)
runs at the same time, each with its own server and database and the arguments after ``--``; both
servers share the machine alike. Each round prints both runs' figures and the ratio of their
server CPU per move (this checkout ÷ the other). The figures are those of a machine loaded twice
over (two servers, two load clients): read the ratio, not the absolute values. The other
checkout's ``bench/load.py`` must accept the same arguments (copy this one's there if needed).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = {
    "moves/s": r"^moves: \d+ in [\d.]+s = ([\d.]+) moves/s",
    "ack p50": r"^round trip sent→ack: +p50 +([\d.]+) ms",
    "ack p99": r"^round trip sent→ack: .*p99 +([\d.]+) ms",
    "cpu ms/move": r"^cpu: server ([\d.]+) ms/move",
}


def run(checkout: Path, args: list[str]) -> dict[str, float]:
    """``bench/load.py`` of ``checkout`` with ``args``; the figures it printed."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, str(checkout / "bench" / "load.py"), *args],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    figures: dict[str, float] = {}
    for name, pattern in FIGURES.items():
        found = re.search(pattern, done.stdout, re.MULTILINE)
        if found is not None:
            figures[name] = float(found.group(1))
    if done.returncode != 0 or "cpu ms/move" not in figures:
        print(f"{checkout}: load.py failed (exit {done.returncode})\n{done.stderr[-2000:]}")
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("other", type=Path, help="the other checkout (its own app/ and bench/load.py)")
    ap.add_argument("--rounds", type=int, default=2)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)  # after it: bench/load.py's arguments
    args = ap.parse_args(argv[:cut])
    load_args = argv[cut + 1 :]
    here, other = ROOT, args.other.resolve()
    ratios: list[float] = []
    for n in range(1, args.rounds + 1):
        with ThreadPoolExecutor(2) as pool:
            mine = pool.submit(run, here, load_args)
            theirs = pool.submit(run, other, load_args)
            results = {"this": mine.result(), "other": theirs.result()}
        for who, figures in results.items():
            shown = "  ".join(f"{k} {v:g}" for k, v in figures.items())
            print(f"round {n} {who:5s} ({here if who == 'this' else other}): {shown}")
        a, b = results["this"].get("cpu ms/move"), results["other"].get("cpu ms/move")
        if a and b:
            ratios.append(a / b)
            print(f"round {n}: server CPU per move, this ÷ other = {a / b:.3f}", flush=True)
    if ratios:
        print(f"ratios: {', '.join(f'{r:.3f}' for r in ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
