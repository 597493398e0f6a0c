"""What importing the app costs a process: the start every server and every test process pays.

    .venv/bin/python bench/import_app.py [--runs 12]

Runs ``import app.main`` in that many fresh Python processes, one after the other, and prints
the CPU each took (user + system, read from the kernel for the child) and, from a collector
callback, how many passes the cycle collector made during the import and how long they took.
The compiled bytecode is kept (as ``make test`` keeps it), so the figures are the import, not
the compilation. Run it on an otherwise idle machine: the spread between runs is some 10 %.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import gc, json, time
passes = [0, 0.0]
def heard(phase, info, _t=[0.0]):
    if phase == "start":
        _t[0] = time.perf_counter()
    else:
        passes[0] += 1
        passes[1] += time.perf_counter() - _t[0]
gc.callbacks.append(heard)
import app.main
print(json.dumps({"passes": passes[0], "gc_seconds": passes[1], "enabled": gc.isenabled()}))
"""


def one() -> tuple[float, dict[str, float]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=12)
    args = ap.parse_args()
    one()  # the bytecode compiled and the files in the page cache
    cpus, gcs, passes = [], [], []
    for _ in range(args.runs):
        cpu, seen = one()
        cpus.append(cpu)
        gcs.append(seen["gc_seconds"])
        passes.append(seen["passes"])
        assert seen["enabled"], "the collector is off after the import"
    print(f"import app.main, {args.runs} processes:")
    median, mean = statistics.median(cpus), statistics.mean(cpus)
    print(f"  CPU a process: median {median:.3f} s, mean {mean:.3f} s")
    print(
        f"  collector during the import: {statistics.median(passes):.0f} passes, "
        f"median {statistics.median(gcs):.3f} s"
    )


if __name__ == "__main__":
    main()
