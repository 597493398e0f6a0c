"""What a table socket that is behind receives: per table, a bounded history of versioned
frames for each seat and a spectator, each encoded once (the shape of lila-ws ``History``).

Each newer state this process remembers of a table (``TableCache``) adds a step: each seat's
``update`` from the version before, and its ``delta`` (an RFC 6902 patch of the seat's game,
app/tables/delta.py), encoded when first asked for, then sent as is to every socket of the seat.
A socket at ``v`` gets the steps after ``v`` when all are held (several as one frame, their moves
and patches in order); else one full frame — a ``snapshot`` (no ``v``, or far behind) or an
``update`` with every move since ``v`` — from memory, or read from the database
(app/tables/feed.py), one read per table at a time. A frame is rendered for one seat, or the
public view, and names who held each seat then (``holders``): the socket sends it to that holder
only. When the memory forgets a table (its seats changed, a move elsewhere) its steps go too.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import NotRequired, TypedDict, TypeVar, cast

from anyio import to_thread

from app.pace.book import UNKNOWN, PaceBook
from app.pace.schemas import ClockOut
from app.realtime.frames import trusted_wire
from app.realtime.hub import Notice, NoticeKind
from app.realtime.ports import Render
from app.tables.answers import CatchUp, CatchUpBase, GameRender, LogLineOut, UpdateAnswer
from app.tables.cache import TableCache
from app.tables.delta import DIGEST_EVERY, DOC_FIELDS, GameDoc, PatchOp, SharedDiffs, digest
from app.tables.frames import Delta, game_wire
from app.tables.render import log_entry, render, render_all
from app.tables.types import Fresh, LogRow, Viewer

# A client further behind than this gets a snapshot instead of the missed moves.
MAX_CATCH_UP = 200
# Steps a table's history holds, and tables with a history (the least recent goes first).
STEPS_KEPT = 4
TABLES_KEPT = 512
# Full frames kept per table and version (a hello storm asks for a few kinds only).
FULL_KEPT = 64

GAME_NOTICES = frozenset({NoticeKind.LOBBY.value, NoticeKind.GAME.value})
Seat = int | None
T = TypeVar("T")
DbRead = Callable[[Viewer, int | None, bool], CatchUp | None]


class DeltaFields(TypedDict):
    """A ``delta`` frame (app/tables/frames.py ``Delta``) as it is encoded."""

    version: int
    seat: int | None
    since: int
    moves: list[LogLineOut]
    patch: list[PatchOp]
    digest: NotRequired[str]


def frame_of(catch_up: CatchUp) -> Render:
    """A catch-up as the socket sends it: the typed frame (without ``holders``), encoded once."""
    return Render(catch_up["version"], game_wire(catch_up), catch_up["holders"])


def doc_of(catch_up: CatchUpBase) -> GameDoc:
    return cast(GameDoc, {k: catch_up[k] for k in DOC_FIELDS})  # type: ignore[literal-required]


class Rendered:
    """One version of a table as remembered, rendered for every seat and a spectator at once
    (the public view's unchanged parts shared with the version before, ``rules.views_for``)."""

    __slots__ = ("_bases", "clock", "fresh", "origin", "seats", "views")
    fresh: Fresh

    def __init__(self, fresh: Fresh, clock: ClockOut | None, before: Rendered | None):
        seats: list[Seat] = [x["seat"] for x in fresh.seats]
        seats.append(None)
        earlier = None
        if before is not None and (public := before.views.get(None)) is not None:
            earlier = (before.fresh.state, public["view"])
        self.fresh, self.clock = fresh, clock
        self.views: dict[Seat, GameRender] = render_all(fresh.state, fresh.version, seats, earlier)
        self.seats = [x.copy() for x in fresh.seats]
        self._bases: dict[Seat, CatchUpBase] = {}
        # The first rendering of this version: what its sockets hold, that the next delta patches.
        same = before is not None and before.fresh.version == fresh.version
        self.origin: Rendered = before.origin if before is not None and same else self

    def base(self, seat: Seat) -> CatchUpBase:
        found = self._bases.get(seat)
        if found is None:
            f = self.fresh
            view = self.views.get(seat) or render(f.state, f.version, seat)
            found = {
                **view,
                "holders": f.holders,
                "status": f.status,
                "seats": self.seats,
                "clock": self.clock,
            }
            self._bases[seat] = found
        return found

    def frame(self, seat: Seat, since: int | None, lines: list[LogRow]) -> CatchUp:
        """The snapshot (``since`` None) or the update after ``since`` (its ``lines``)."""
        if since is None:
            return {**self.base(seat), "type": "snapshot"}
        moves = [log_entry(line, seat) for line in lines]
        return {**self.base(seat), "type": "update", "since": since, "moves": moves}


class Step:
    """The way from version ``since`` to the next one held (``at``) for every seat and a
    spectator: each seat's update and its patch from the document it was sent at ``since``;
    its frames encoded once."""

    __slots__ = ("_frames", "_patches", "at", "before", "diffs", "lines", "since")

    def __init__(self, before: Rendered, at: Rendered, lines: list[LogRow]) -> None:
        self.since, self.before, self.at, self.lines = before.fresh.version, before, at, lines
        self.diffs = SharedDiffs()  # what the seats' documents share is diffed once
        self._patches: dict[Seat, list[PatchOp]] = {}
        self._frames: dict[tuple[Seat, bool], Render] = {}

    def update(self, seat: Seat) -> UpdateAnswer:
        return cast(UpdateAnswer, self.at.frame(seat, self.since, self.lines))

    def patch(self, seat: Seat) -> list[PatchOp]:
        found = self._patches.get(seat)
        if found is None:
            old = doc_of(self.before.origin.base(seat))
            found = self._patches[seat] = self.diffs.diff(old, doc_of(self.at.base(seat)))
        return found

    def frame(self, seat: Seat, deltas: bool) -> Render:
        found = self._frames.get((seat, deltas))
        if found is None:
            found = delta_of([self], seat) if deltas else frame_of(self.update(seat))
            self._frames[(seat, deltas)] = found
        return found


def delta_of(steps: list[Step], seat: Seat) -> Render:
    """The ``delta`` frame of consecutive steps: their moves and their patches one after the
    other (RFC 6902 applies them in order), the digest of the last version on some versions."""
    at = steps[-1].at.base(seat)
    version = at["version"]
    fields: DeltaFields = {
        "version": version,
        "seat": seat,
        "since": steps[0].since,
        "moves": [m for step in steps for m in step.update(seat)["moves"]],
        "patch": [op for step in steps for op in step.patch(seat)],
    }
    if version % DIGEST_EVERY == 0:
        fields["digest"] = digest(doc_of(at))
    return Render(version, trusted_wire(Delta, fields), at["holders"])


class TableHistory:
    """One table's newest version (``at``), the steps that led to it, and the full frames of
    this version asked for so far (by seat, ``since`` and ``force``)."""

    __slots__ = ("at", "full", "steps")

    def __init__(self, at: Rendered) -> None:
        self.at = at
        self.steps: deque[Step] = deque(maxlen=STEPS_KEPT)
        self.full: dict[tuple[Seat, int | None, bool, bool], Render] = {}

    def move_to(self, fresh: Fresh, clock: ClockOut | None) -> None:
        """``fresh`` is the table's state now: a step from the version held when its moves are
        all known; the steps before it go when the seats changed (their holders are old)."""
        before, at = self.at, Rendered(fresh, clock, self.at)
        lines = fresh.lines_after(before.fresh.version)
        if lines is None or fresh.seats_version != before.fresh.seats_version:
            self.steps.clear()
        if lines is not None:
            self.steps.append(Step(before, at, lines))
        self.at, self.full = at, {}

    def after(self, since: int) -> list[Step] | None:
        """The steps after version ``since``, when all are held."""
        if self.steps and self.steps[-1].since == since:
            return [self.steps[-1]]  # one behind: the common case
        for i, step in enumerate(self.steps):
            if step.since == since:
                return list(self.steps)[i:]
        return None


class Missing:
    """Memory cannot answer: the database must be read."""


MISSING = Missing()


class History:
    def __init__(
        self, cache: TableCache, pace: PaceBook, read: DbRead, size: int = TABLES_KEPT
    ) -> None:
        self.cache, self.pace, self.read, self.size = cache, pace, read, size
        self.tables: OrderedDict[str, TableHistory] = OrderedDict()
        # Catch-ups reading a table from the database right now: later ones wait for that read.
        self.loading: dict[str, asyncio.Future[CatchUp | None]] = {}
        self.reads = 0  # database reads made for catch-ups (for tests and figures)

    def heard(self, notice: Notice) -> None:
        """A hub watcher, after the memory's (``TableCache.heard``): a table the memory forgot
        keeps only its newest version held, the base of its next delta."""
        h = self.tables.get(notice.table_id)
        if h is not None and notice.kind in GAME_NOTICES and notice.table_id not in self.cache:
            h.steps.clear()
            h.full = {}

    def current(self, table_id: str) -> TableHistory | None:
        """The table's history brought up to the state this process remembers; None when it
        remembers none (or not its clock)."""
        fresh = self.cache.get(table_id)
        if fresh is None:
            return None
        h = self.tables.get(table_id)
        if h is None or h.at.fresh is not fresh:
            shown = self.pace.public_known(
                table_id, fresh.version, fresh.seats_version, fresh.seats
            )
            if shown is UNKNOWN:
                return None
            clock = cast(ClockOut | None, shown)
            if h is None or fresh.version < h.at.fresh.version:
                h = self.tables[table_id] = TableHistory(Rendered(fresh, clock, None))
                if len(self.tables) > self.size:
                    self.tables.popitem(last=False)
            else:
                h.move_to(fresh, clock)
        self.tables.move_to_end(table_id)
        return h

    def remembered(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | Missing:
        """The full frame for a listener at ``since``, from memory when it can be made."""
        h = self.current(viewer.table_id)
        return MISSING if h is None else self._full(h, viewer.seat, since, force)

    def _full(
        self, h: TableHistory, seat: Seat, since: int | None, force: bool
    ) -> CatchUp | Missing:
        fresh = h.at.fresh
        top = fresh.version
        if since is not None and (since > top or (since == top and not force)):
            return MISSING  # later than known, or a notice this memory has not seen yet
        if since is None or top - since > MAX_CATCH_UP:
            return h.at.frame(seat, None, [])
        lines = [] if since == top else fresh.lines_after(since)
        return MISSING if lines is None else h.at.frame(seat, since, lines)

    def _frame(
        self, viewer: Viewer, since: int | None, force: bool, deltas: bool
    ) -> Render | Missing:
        """One frame for a socket at ``since``: the step after it, already encoded; the steps
        after it as one frame (the protocol sends one catch-up, its moves all in order); else
        the full frame."""
        h = self.current(viewer.table_id)
        if h is None:
            return MISSING
        seat = viewer.seat
        steps = h.after(since) if since is not None and since < h.at.fresh.version else None
        if steps is not None and len(steps) == 1:
            return steps[0].frame(seat, deltas)
        key = (seat, since, force, deltas and steps is not None)
        found = h.full.get(key)
        if found is None:
            if steps is not None and deltas:
                found = delta_of(steps, seat)
            elif isinstance(frame := self._full(h, seat, since, force), Missing):
                return frame
            else:
                found = frame_of(frame)
            if len(h.full) >= FULL_KEPT:
                h.full.clear()
            h.full[key] = found
        return found

    async def frame(
        self, viewer: Viewer, since: int | None, force: bool, deltas: bool = False
    ) -> Render | None:
        """What a socket at ``since`` is sent: the steps after it (``deltas``: as a delta), or
        a full frame; None when there is no game, or nothing to send."""
        got = await self._catch_up(viewer, since, force, self._frame, deltas)
        return frame_of(got) if isinstance(got, dict) else got

    async def catch_up(self, viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
        """The one full frame for a listener at ``since`` (a snapshot or an update)."""
        return await self._catch_up(
            viewer, since, force, lambda v, s, f, _: self.remembered(v, s, f)
        )

    async def _catch_up(
        self,
        viewer: Viewer,
        since: int | None,
        force: bool,
        memory: Callable[[Viewer, int | None, bool, bool], T | Missing],
        deltas: bool = False,
    ) -> T | CatchUp | None:
        """From ``memory``, else from the database, read once for every caller of the table:
        another socket of this table may be reading it already (a move made elsewhere reaches
        all of them at once; the sockets of a table that just started say hello together)."""
        table_id = viewer.table_id
        while True:
            found = memory(viewer, since, force, deltas)
            if not isinstance(found, Missing):
                return found
            pending = self.loading.get(table_id)
            if pending is None:
                break
            await asyncio.wait([pending])  # its result is its reader's; a failure, too
        # A task of its own: a socket that goes away mid-read cancels its wait, not the read
        # the other sockets wait for.
        self.reads += 1
        task = asyncio.ensure_future(to_thread.run_sync(self.read, viewer, since, force))
        self.loading[table_id] = task
        task.add_done_callback(lambda done: self._read_done(table_id, done))
        frame = await asyncio.shield(task)
        found = memory(viewer, since, force, deltas)  # what was read is remembered now
        return frame if isinstance(found, Missing) else found

    def _read_done(self, table_id: str, task: asyncio.Future[CatchUp | None]) -> None:
        if self.loading.get(table_id) is task:
            del self.loading[table_id]
        if not task.cancelled():
            task.exception()  # retrieved: a failure is its reader's to answer
