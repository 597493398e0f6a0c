"""Counters the move path and the limits add to: plain integers and a fixed bucket array.

They are incremented on the event loop only (the moves of HTTP, sockets and bots are all
submitted there), so an increment is one integer addition with no lock; a scrape reads them on
the same loop. ``python -m bench.metrics_cost`` measures what one move's record costs.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from typing import Final

# Seconds; a move's time from its submission to its acknowledgement (the commit).
MOVE_BUCKETS: Final = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)


class MoveTally:
    """Moves accepted (committed now), repeated (a move_id played already, answered with its
    earlier result), refused by reason (the error code), and the accepted moves' latency."""

    def __init__(self) -> None:
        self.accepted = 0
        self.repeated = 0
        self.refused: Counter[str] = Counter()
        # one slot per bucket bound, and one past the last (+Inf); not cumulative
        self.buckets = [0] * (len(MOVE_BUCKETS) + 1)
        self.seconds = 0.0

    def accept(self, seconds: float, repeated: bool) -> None:
        if repeated:
            self.repeated += 1
            return
        self.accepted += 1
        self.buckets[bisect_left(MOVE_BUCKETS, seconds)] += 1
        self.seconds += seconds

    def refuse(self, reason: str) -> None:
        self.refused[reason] += 1


class RefusalTally:
    """Requests and frames refused by a rate limit, by the limit's name."""

    def __init__(self) -> None:
        self.by_limit: Counter[str] = Counter()

    def refuse(self, limit: str) -> None:
        self.by_limit[limit] += 1
