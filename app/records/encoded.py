"""Replay responses encoded once: the JSON bytes of a replay page or a position, kept per
(replay, what was asked, whose eyes) until they are the least recently used past ``max_bytes``.

A finished game never changes, so the bytes stay right; access is checked on every request
before the cache is asked (the cache only saves the building, the model check and the
encoding, never the check of who may look). ``hits`` and ``misses`` count what it saved.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

Key = tuple[str, str, str, int, int]  # (replay id, "page" | "position", eyes, a, b)


class EncodedCache:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Key, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # requests encode in worker threads
        self.hits = 0
        self.misses = 0

    def peek(self, key: Key) -> bytes | None:
        """The kept bytes of ``key``, if any (nothing is made)."""
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
                self.hits += 1
            return body

    def get_or_make(self, key: Key, make: Callable[[], bytes]) -> bytes:
        """The kept bytes of ``key``, or ``make()``'s, kept (unless larger than the cache)."""
        with self._lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
                self.hits += 1
                return body
            self.misses += 1
        body = make()  # outside the lock: two first requests may both make it, once each
        self._put(key, body)
        return body

    def _put(self, key: Key, body: bytes) -> None:
        if len(body) > self.max_bytes:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._kept[key] = body
            self._bytes += len(body)
            while self._bytes > self.max_bytes:
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped)

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._kept)
