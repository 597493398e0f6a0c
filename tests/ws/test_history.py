"""The table's history on its own (app/tables/history.py): what a socket that is behind is sent
— the frames after its version when all are held, each encoded once per seat, else one full
frame — and the database read once for every socket of a table."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from datetime import UTC, datetime
from typing import Any

import jsonpatch

from app import rules
from app.pace.book import PaceBook
from app.realtime.hub import Notice
from app.tables.answers import CatchUp
from app.tables.cache import TableCache
from app.tables.history import STEPS_KEPT, History
from app.tables.status import TableStatus
from app.tables.types import Fresh, LogRow, Viewer
from tests.conftest import pick_move

SEATS = [
    {"seat": 0, "name": "Ann", "bot_level": None},
    {"seat": 1, "name": "Bob", "bot_level": None},
]
HOLDERS: dict[int, str | None] = {0: "ann", 1: "bob"}


class Table:
    """A game moved by hand, remembered as a process that moved it would (``TableCache``)."""

    def __init__(self, cache: TableCache, pace: PaceBook, seats_version: int = 1) -> None:
        self.cache, self.pace = cache, pace
        self.state = rules.new_game(3, {"players": 2})
        self.fresh = Fresh(0, self.state, TableStatus.PLAYING, None, SEATS, seats_version, HOLDERS)
        self.rng = random.Random(3)

    def remember(self) -> None:
        f = self.fresh
        self.cache.remember("t", f, self.cache.epoch)
        self.pace.remember("t", f.version, f.seats_version, None)

    def move(self) -> None:
        f = self.fresh
        seat = rules.to_act(self.state)[0]
        legal = [rules.encode_move(m) for m in rules.legal_moves(self.state, seat)]
        tr = rules.apply_move(self.state, seat, pick_move(legal, self.rng))
        entry = LogRow(f.version + 1, seat, tr.move, list(tr.events), datetime.now(UTC))
        self.state = tr.state
        self.fresh = Fresh(
            entry.version,
            tr.state,
            f.status,
            entry,
            f.seats,
            f.seats_version,
            f.holders,
            f.lines_to_keep(),
        )
        self.remember()


def doc(frame: dict[str, Any]) -> dict[str, Any]:
    return {k: frame[k] for k in ("view", "legal_moves", "scores", "status", "seats", "clock")}


def test_the_frames_after_a_version_are_encoded_once_per_seat_and_follow_each_other() -> None:
    async def go() -> None:
        cache, pace = TableCache(), PaceBook()
        table = Table(cache, pace)
        gate = threading.Event()

        def read(viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
            assert gate.wait(10)
            table.remember()  # what a read of the database remembers
            return None

        history = History(cache, pace, read)
        ann, bob = Viewer("t", 0, "ann"), Viewer("t", 1, "bob")
        waiting = [asyncio.create_task(history.frame(ann, None, True)) for _ in range(50)]
        await asyncio.sleep(0)  # let every task reach the read
        gate.set()
        results = await asyncio.gather(*waiting)
        assert history.reads == 1
        first = results[0]
        assert first is not None and all(r is first for r in results)
        snap = json.loads(first.text)
        assert snap["type"] == "snapshot" and snap["seat"] == 0 and snap["version"] == 0
        assert first.holders == HOLDERS
        bob_snap = await history.frame(bob, None, True)
        assert bob_snap is not None
        held: dict[int | None, Any] = {0: doc(snap), 1: doc(json.loads(bob_snap.text))}
        bob_at = [held[1]]  # Bob's game at every version

        # Each move is a step: the update and the delta of every seat, each encoded once.
        for version in range(1, STEPS_KEPT + 3):
            table.move()
            for viewer in (ann, bob):
                update = await history.frame(viewer, version - 1, False)
                delta = await history.frame(viewer, version - 1, False, deltas=True)
                assert update is not None and delta is not None
                assert await history.frame(viewer, version - 1, False) is update
                assert await history.frame(viewer, version - 1, False, deltas=True) is delta
                u, d = json.loads(update.text), json.loads(delta.text)
                assert u["type"] == "update" and u["since"] == version - 1
                assert u["seat"] == viewer.seat and [m["version"] for m in u["moves"]] == [version]
                assert d["type"] == "delta" and d["moves"] == u["moves"]
                held[viewer.seat] = jsonpatch.apply_patch(held[viewer.seat], d["patch"])
                assert held[viewer.seat] == doc(u)
            bob_at.append(held[1])
        assert history.reads == 1
        top = table.fresh.version

        # A socket a few versions behind gets the steps since its version as one frame.
        since = top - STEPS_KEPT
        steps = await history.frame(bob, since, False, deltas=True)
        update = await history.frame(bob, since, False)
        assert steps is not None and update is not None
        d, u = json.loads(steps.text), json.loads(update.text)
        assert d["type"] == "delta" and d["since"] == since and d["version"] == top
        assert [m["version"] for m in d["moves"]] == list(range(since + 1, top + 1))
        assert jsonpatch.apply_patch(bob_at[since], d["patch"]) == bob_at[top] == doc(u)
        assert u["type"] == "update" and u["moves"] == d["moves"]
        # Further behind than the steps held: an update with every move the memory holds.
        behind = await history.frame(bob, since - 1, False, deltas=True)
        assert behind is not None
        full = json.loads(behind.text)
        assert full["type"] == "update" and full["since"] == since - 1
        assert [m["version"] for m in full["moves"]] == list(range(since, top + 1))

        # The seats changed (the table read again at the same version): no step is served.
        for watcher in (cache.heard, history.heard):  # as the hub calls them
            watcher(Notice("t", "lobby"))
        assert not history.tables["t"].steps  # the table's memory forgot it: its steps go
        table.fresh = Fresh(**{**table.fresh.__dict__, "seats_version": 2})
        table.remember()
        again = await history.frame(bob, top - 1, False, deltas=True)
        assert again is not None and json.loads(again.text)["type"] == "update"

    asyncio.run(go())


def test_a_socket_leaving_mid_read_does_not_cancel_the_read_others_wait_for() -> None:
    async def go() -> None:
        cache, pace = TableCache(), PaceBook()
        table = Table(cache, pace)
        gate = threading.Event()

        def read(viewer: Viewer, since: int | None, force: bool) -> CatchUp | None:
            assert gate.wait(10)
            table.remember()
            return None

        history = History(cache, pace, read)
        spectator = Viewer("t", None, None)
        leaver = asyncio.create_task(history.frame(spectator, None, True))
        stayer = asyncio.create_task(history.frame(spectator, None, True))
        await asyncio.sleep(0)
        leaver.cancel()
        gate.set()
        got = await stayer
        assert got is not None and got.version == 0 and history.reads == 1
        assert json.loads(got.text)["view"]["me"] is None  # the public view
        await asyncio.gather(leaver, return_exceptions=True)

    asyncio.run(go())
