"""Replays this process has worked out, so that stepping through one is cheap.

A finished game never changes, so a replay is kept until it is the least recently used of
``size`` (about 300 kB each: the events, the tracks and a state every 16 positions). Access is
checked on every request before the cache is asked: the cache only saves the replaying.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from app.records.replay import Replayed, Source

Cached = tuple[Source, Replayed]

REPLAYS_KEPT = 32


class ReplayCache:
    def __init__(self, size: int = REPLAYS_KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[str, Cached] = OrderedDict()
        self._lock = threading.Lock()  # requests replay in worker threads
        self.misses = 0

    def get(self, replay_id: str) -> Cached | None:
        with self._lock:
            done = self._kept.get(replay_id)
            if done is not None:
                self._kept.move_to_end(replay_id)
            else:
                self.misses += 1
            return done

    def put(self, replay_id: str, done: Cached) -> None:
        with self._lock:
            self._kept[replay_id] = done
            self._kept.move_to_end(replay_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)
