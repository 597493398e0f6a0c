"""The check every finished game of the test suites passes: each player's points by source sum to
their tracks, and the outcome's to the final tracks (docs/view.md, "Where the points came from").

``tests/conftest.py`` runs it on every outcome the engine computes in the test process (the
engine's finish, views and ``rules.outcome``: in-process apps and live servers in threads);
``tests/browser/conftest.py`` runs it on every finished game stored by the browser suite's
server subprocess.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from app.rules.breakdown import by_source


def problems(st: dict[str, Any], out: Any) -> list[str]:
    """Why the finished state ``st`` and its outcome ``out`` do not add up (empty if they do)."""
    found: list[str] = []
    for seat, p in enumerate(st["ps"]):
        for track in ("cp", "bp"):
            got = sum(by_source(p, track).values())
            if got != p[track]:
                found.append(f"seat {seat}: {track} by source sums to {got}, not {p[track]}")
    for op in out["players"]:
        for track in ("cp", "bp"):
            per = op["points"][track]
            if sum(per.values()) != op[track]:
                found.append(
                    f"seat {op['seat']}: final {track} by source {per} does not sum to {op[track]}"
                )
        if (
            op["points"]["cp"]["leftovers"] + op["points"]["bp"]["leftovers"]
            != (op["leftover"]["points"])
        ):
            found.append(f"seat {op['seat']}: leftovers by source differ from the leftover points")
    return found


class FinishCheck:
    """Counts the outcomes checked (and the games seen finishing) and keeps every failure."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.outcomes = 0
        self.finishes = 0
        self.stored = 0
        self.failures: list[str] = []

    def wrap(self, original: Callable[[Any], Any], finishing: bool) -> Callable[[Any], Any]:
        def checked(st: Any) -> Any:
            out = original(st)
            found = problems(st, out)
            with self.lock:
                self.outcomes += 1
                self.finishes += finishing
                self.failures.extend(found)
            return out

        return checked


CHECK = FinishCheck()


def engine_modules_holding(original: object) -> list[Any]:
    return [
        mod
        for name, mod in list(sys.modules.items())
        if (name == "app.rules" or name.startswith("app.rules."))
        and getattr(mod, "compute_outcome", None) is original
    ]
