"""What counting a move for /metrics costs on the event loop (app/tally.py): one ``accept`` (an
integer addition, a bisect into 13 bounds, a float addition) and one ``refuse`` (a Counter
increment), against the bare ``perf_counter`` pair the timing itself needs.

    python -m bench.metrics_cost
"""

from __future__ import annotations

import json
import time
import timeit

from app.tally import MoveTally, RefusalTally


def main() -> None:
    tally, limits = MoveTally(), RefusalTally()
    n = 1_000_000
    runs = {
        "perf_counter_pair": lambda: time.perf_counter() - time.perf_counter(),
        "accept": lambda: tally.accept(0.004, False),
        "refuse": lambda: tally.refuse("stale_version"),
        "rate_limit_refuse": lambda: limits.refuse("move"),
    }
    out = {
        name: round(min(timeit.repeat(fn, number=n, repeat=5)) / n * 1e9, 1)
        for name, fn in runs.items()
    }
    print(json.dumps({"ns_per_call": out}, indent=2))


if __name__ == "__main__":
    main()
