"""Who may look at a replay, remembered for a few seconds, so that stepping through a replay
asks the database nothing but the caller's session.

A finished game's seats and an imported replay's owner never change; the one fact that does is
the host's `public_replay` choice. A door is therefore kept for ``DOOR_SECONDS`` (and dropped at
once by this process's own ``set_public``): on another instance a replay made private stays
readable to strangers for at most that long, and one made public is readable after at most that
long. Only finished tables and existing imported replays are kept, so a guess never costs memory,
and a running table (whose seats move) is always read afresh.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

from app.errors import NotFound
from app.records.errors import NotFinished

# How long a door is believed, in seconds, and how many doors a process keeps.
DOOR_SECONDS = 5.0
DOORS_KEPT = 4096


@dataclass(frozen=True, slots=True)
class Door:
    """What decides who may look at one replay."""

    kind: Literal["table", "import"]
    holders: frozenset[str]  # the seated profiles, or the importer
    public: bool  # the host made the replay public (a table's only)
    finished: bool  # a table's game is over (an imported replay: always)

    def sees(self, profile_id: str | None) -> bool:
        """The caller sits at the table or imported the replay: they guess nothing."""
        return profile_id is not None and profile_id in self.holders

    def check(self, profile_id: str | None) -> None:
        """Raise unless the caller may have the replay: the same answers as the database's
        check (`404` to anyone else, `409 not_finished` to a player of a running game)."""
        if not self.sees(profile_id) and not self.public:
            raise NotFound("no such replay")
        if not self.finished:
            raise NotFinished("the game is not finished: it has no record yet")


class Doors:
    """The doors this process believes, each until ``DOOR_SECONDS`` after it was read."""

    def __init__(self, seconds: float = DOOR_SECONDS, size: int = DOORS_KEPT) -> None:
        self.seconds = seconds
        self.size = size
        self._kept: OrderedDict[str, tuple[float, Door]] = OrderedDict()
        self._lock = threading.Lock()  # read on the event loop, written in worker threads

    def get(self, replay_id: str, now: float) -> Door | None:
        with self._lock:
            kept = self._kept.get(replay_id)
            if kept is None:
                return None
            read_at, door = kept
            if now - read_at >= self.seconds or now < read_at:
                del self._kept[replay_id]
                return None
            return door

    def put(self, replay_id: str, door: Door, now: float) -> None:
        if not door.finished:
            return  # a running table's seats may still change
        with self._lock:
            self._kept[replay_id] = (now, door)
            self._kept.move_to_end(replay_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def forget(self, replay_id: str) -> None:
        with self._lock:
            self._kept.pop(replay_id, None)

    def __len__(self) -> int:
        return len(self._kept)
