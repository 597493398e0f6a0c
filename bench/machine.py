"""How fast this machine runs Python now: a fixed workload's CPU time, to read a bench's figures by.

The machine's speed drifts (a shared host: the same code took from 0.9 to 2.3 ms of CPU per move
on different days), so a figure of CPU per move means little alone. ``reference_ms`` runs the same
pure-Python work every time — none of the app's code, so a change to the app never changes it —
and returns its CPU time in milliseconds (the best of a few tries); a bench prints it beside its
own figures, and two runs are compared by their ratio to it.
"""

from __future__ import annotations

import json
import time

# A document of the size and shape of a seat's game (nested dicts and lists of short strings
# and small integers).
_DOC = {
    "players": [
        {"seat": s, "res": {r: s + i for i, r in enumerate("abcdef")}, "hand": list(range(12))}
        for s in range(4)
    ],
    "board": {
        f"loc{i}": [{"cost": {"x": i, "y": j}, "who": None} for j in range(4)] for i in range(12)
    },
    "log": [f"event {i}" for i in range(40)],
}


def _work() -> int:
    total = 0
    for _ in range(300):
        text = json.dumps(_DOC)
        doc = json.loads(text)
        copies = [dict(p) for p in doc["players"]]
        total += sum(len(p["hand"]) for p in copies) + len(text)
        total += sum(sorted(i * 7919 % 1000 for i in range(2000))[::100])
    return total


def reference_ms(tries: int = 5) -> float:
    """The fixed workload's CPU time on this machine now, in ms (the best of ``tries``)."""
    best = float("inf")
    for _ in range(tries):
        start = time.process_time()
        _work()
        best = min(best, time.process_time() - start)
    return best * 1e3


if __name__ == "__main__":
    print(f"machine: reference workload {reference_ms():.0f} ms of CPU")
