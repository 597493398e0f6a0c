"""Per-key asyncio locks that do not pile up: a lock lives while someone holds or awaits it.

``locks[key]`` returns the lock of that key, creating it if needed. The mapping keeps locks only
weakly: whoever is inside ``async with locks[key]`` (or waiting to get in) holds a reference, so
every caller for a key shares one lock while it is in use, and the entry disappears once nobody
needs it. No pruning, no growth with the number of tables or profiles ever seen.

A lock here only orders the callers of one process (sparing the database waits and lost races);
it never makes an act correct: other instances do not see it. What an act may do is judged in
the database (a table's seats: app/tables/lobby.py; a move: its conditional update).
"""

from __future__ import annotations

import asyncio
import weakref


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def __getitem__(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def __len__(self) -> int:
        return len(self._locks)

    def __contains__(self, key: object) -> bool:
        return key in self._locks
