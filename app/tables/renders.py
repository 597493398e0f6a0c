"""The frames of the game feed, made once for every socket that asks (``SharedRenders``).

Each catch-up for (table, seat, since, force) is rendered once (app/tables/feed.py) and encoded
once; every socket that asks for the same thing while the table has not changed gets the same
bytes — as a full frame, or as a delta (an RFC 6902 patch of the seat's game at ``since``,
app/tables/delta.py) for a socket that asked for deltas. A lobby or game notice for a table (a
move, a seat change, from this process or relayed) forgets that table's renders, and renders
already under way for it.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, cast

from app.realtime.frames import trusted_wire
from app.realtime.hub import Notice, NoticeKind
from app.realtime.ports import Render
from app.tables.answers import CatchUp
from app.tables.delta import DIGEST_EVERY, DOC_FIELDS, GameDoc, SharedDiffs, digest
from app.tables.frames import Delta, game_wire

# The notices that change a game render (the others are other features').
GAME_NOTICES = frozenset({NoticeKind.LOBBY.value, NoticeKind.GAME.value})


def frame_of(catch_up: CatchUp) -> Render:
    """A catch-up as the socket sends it: the typed frame (without ``holders``), encoded once."""
    return Render(catch_up["version"], game_wire(catch_up), catch_up.get("holders", {}))


Key = tuple[str, int | None, int | None, bool]  # table, seat, since, force
DOCS_KEPT = 4096  # the newest document of this many (table, seat) pairs, to diff the next from


def doc_of(catch_up: CatchUp) -> GameDoc:
    return cast(GameDoc, {k: catch_up[k] for k in DOC_FIELDS})  # type: ignore[literal-required]


class Entry:
    """One shared catch-up: its frame encoded for full views and, when the seat's document at
    ``since`` was known, as a delta — each encoded once, when first asked for."""

    __slots__ = ("_delta", "_full", "before", "catch_up", "diffs")

    def __init__(self, catch_up: CatchUp, before: CatchUp | None, diffs: SharedDiffs) -> None:
        self.catch_up = catch_up
        self.before = before  # the seat's catch-up at ``since`` (None: not known here)
        self.diffs = diffs  # the table's: what the seats' documents share is diffed once
        self._full: Render | None = None
        self._delta: Render | None = None

    def full(self) -> Render:
        if self._full is None:
            self._full = frame_of(self.catch_up)
        return self._full

    def delta(self) -> Render:
        """The delta frame, or the full one when there is nothing to diff from."""
        c = self.catch_up
        if self.before is None or c["type"] != "update":
            return self.full()
        if self._delta is None:
            doc = doc_of(c)
            version = c["version"]
            fields: dict[str, Any] = {
                "version": version,
                "seat": c["seat"],
                "since": c["since"],
                "moves": c["moves"],
                "patch": self.diffs.diff(doc_of(self.before), doc),
            }
            if version % DIGEST_EVERY == 0:
                fields["digest"] = digest(doc)
            self._delta = Render(version, trusted_wire(Delta, fields), c.get("holders", {}))
        return self._delta


class SharedRenders:
    def __init__(self, max_tables: int = 512) -> None:
        self.max_tables = max_tables
        # By table, so that a notice forgets its table's renders without looking at the others';
        # the tables rendered least recently go first.
        self._done: OrderedDict[str, dict[Key, Entry | None]] = OrderedDict()
        self._pending: dict[str, dict[Key, asyncio.Task[Entry | None]]] = {}
        # (table, seat) -> (version, catch-up): the newest game rendered for the seat, kept across
        # notices (a version's game never changes), so that the next one can be a delta.
        self._docs: OrderedDict[tuple[str, int | None], tuple[int, CatchUp]] = OrderedDict()
        # table -> the diffs its seats' deltas share (app/tables/delta.py), the newest tables'
        self._diffs: OrderedDict[str, SharedDiffs] = OrderedDict()
        self.renders = 0  # how many times the feed was asked (for tests and figures)

    def forget(self, notice: Notice) -> None:
        if notice.kind not in GAME_NOTICES:
            return
        self._done.pop(notice.table_id, None)
        self._pending.pop(notice.table_id, None)

    async def get(
        self,
        key: Key,
        produce: Callable[[], Awaitable[CatchUp | None]],
        deltas: bool = False,
        quick: Callable[[], CatchUp | None] | None = None,
    ) -> Render | None:
        """The catch-up for ``key``; ``deltas``: as a delta frame when it can be one. ``quick``
        makes it at once when it can (from memory, nothing to wait for): no task is needed."""
        table = key[0]
        done = self._done.get(table)
        if done is not None and key in done:
            self._done.move_to_end(table)
            entry = done[key]
        elif quick is not None and key not in self._pending.get(table, {}) and (ready := quick()):
            entry = Entry(ready, self._remember(key, ready), self._diffs_of(table))
            self._keep(key, entry)
            self.renders += 1
        else:
            task = self._pending.get(table, {}).get(key)
            if task is None:
                # A task of its own: a socket that goes away mid-render cancels its wait, not
                # the render the other sockets wait for.
                task = asyncio.create_task(self._render(key, produce))
                task.add_done_callback(_retrieve)
                self._pending.setdefault(table, {})[key] = task
                self.renders += 1
            entry = await asyncio.shield(task)
        if entry is None:
            return None
        return entry.delta() if deltas else entry.full()

    async def _render(
        self, key: Key, produce: Callable[[], Awaitable[CatchUp | None]]
    ) -> Entry | None:
        me = asyncio.current_task()
        try:
            frame = await produce()
        except BaseException:
            self._settle(key, me)
            raise
        entry = (
            None
            if frame is None
            else Entry(frame, self._remember(key, frame), self._diffs_of(key[0]))
        )
        if self._settle(key, me):  # not forgotten meanwhile: still current
            self._keep(key, entry)
        return entry

    def _diffs_of(self, table: str) -> SharedDiffs:
        found = self._diffs.get(table)
        if found is None:
            found = self._diffs[table] = SharedDiffs()
            if len(self._diffs) > self.max_tables:
                self._diffs.popitem(last=False)
        else:
            self._diffs.move_to_end(table)
        return found

    def _keep(self, key: Key, entry: Entry | None) -> None:
        self._done.setdefault(key[0], {})[key] = entry
        self._done.move_to_end(key[0])
        if len(self._done) > self.max_tables:
            self._done.popitem(last=False)

    def _settle(self, key: Key, task: asyncio.Task[Any] | None) -> bool:
        """The render of ``key`` is over: True when it was still the table's current one."""
        pending = self._pending.get(key[0])
        if pending is None or pending.get(key) is not task:
            return False
        del pending[key]
        if not pending:
            del self._pending[key[0]]
        return True

    def _remember(self, key: Key, frame: CatchUp) -> CatchUp | None:
        """Keep the seat's game at this version; the one at ``since``, when known."""
        seat = (key[0], key[1])
        known = self._docs.get(seat)
        before = None
        if known is not None and frame["type"] == "update" and known[0] == frame["since"]:
            before = known[1]
        if known is None or known[0] < frame["version"]:
            self._docs[seat] = (frame["version"], frame)
            self._docs.move_to_end(seat)
            if len(self._docs) > DOCS_KEPT:
                self._docs.popitem(last=False)
        return before


def _retrieve(task: asyncio.Task[Entry | None]) -> None:
    """A failed render is reported to the sockets that waited; nobody else needs it."""
    if not task.cancelled():
        task.exception()
