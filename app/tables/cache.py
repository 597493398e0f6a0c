"""The per-process memory of fresh tables, and catch-up reads shared between sockets.

The last committed move of each table in this process: the next move starts from its state and
the table's sockets catch up from it without reading the database. The memory is only a short
cut: a move from it is checked by the database (version and ``seats_version``), so a table
changed elsewhere costs one re-read, never a wrong move.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from app.realtime.hub import Notice, NoticeKind
from app.tables.types import Fresh

# Tables a process remembers (the state it last committed or read, about 11 kB each); the table
# that moved least recently is forgotten first and read from the database when it moves again.
FRESH_TABLES = 2000
# Tables whose last lobby notice is kept by its epoch (a few dozen bytes each); past that, the
# oldest are forgotten and a read of any table that began before them remembers nothing.
LOBBY_NOTICES_KEPT = 20_000


class TableCache:
    def __init__(self, size: int = FRESH_TABLES) -> None:
        self.size = size
        self.fresh: OrderedDict[str, Fresh] = OrderedDict()  # least recently moved first
        # Every lobby notice (local or relayed) advances the epoch, and is kept as its table's
        # last: a read of a table that overlapped a lobby notice of that table remembers nothing
        # (its seats may be stale). Other tables' notices do not matter to it: a table that
        # starts or changes seats does not make the moves of the others forget their tables.
        self.epoch = 0
        self._lobby_at: OrderedDict[str, int] = OrderedDict()  # table -> epoch of its last
        self._lobby_forgotten = 0  # the newest epoch dropped from ``_lobby_at``
        # Catch-ups reading a table from the database right now: later ones wait for that read.
        self.loading: dict[str, asyncio.Future[None]] = {}

    def heard(self, notice: Notice) -> None:
        """A hub watcher: a lobby notice makes the remembered seats of its table stale; a game
        notice of a later version than the one remembered (a move made elsewhere: another
        process, the sweeper), or of no version, makes its state stale."""
        if notice.kind == NoticeKind.LOBBY:
            self.epoch += 1
            self._lobby_at[notice.table_id] = self.epoch
            self._lobby_at.move_to_end(notice.table_id)
            while len(self._lobby_at) > LOBBY_NOTICES_KEPT:
                _, dropped = self._lobby_at.popitem(last=False)
                self._lobby_forgotten = max(self._lobby_forgotten, dropped)
            self.fresh.pop(notice.table_id, None)
        elif notice.kind == NoticeKind.GAME:
            known = self.fresh.get(notice.table_id)
            if known is not None and (notice.version is None or notice.version > known.version):
                del self.fresh[notice.table_id]

    def get(self, table_id: str) -> Fresh | None:
        return self.fresh.get(table_id)

    def forget(self, table_id: str) -> None:
        self.fresh.pop(table_id, None)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self.fresh

    def seats_changed_since(self, table_id: str, epoch: int) -> bool:
        """A lobby notice of ``table_id`` came after ``epoch`` (or may have: it is no longer
        kept)."""
        last = self._lobby_at.get(table_id)
        return (self._lobby_forgotten if last is None else last) > epoch

    def remember(self, table_id: str, fresh: Fresh, epoch: int) -> None:
        """Keep ``fresh`` as the table's latest known state, unless a lobby notice of the table
        came since ``epoch`` (its seats may have changed) or a later version is known already."""
        if self.seats_changed_since(table_id, epoch):
            self.fresh.pop(table_id, None)
            return
        known = self.fresh.get(table_id)
        if known is not None and known.version >= fresh.version:
            return
        self.fresh[table_id] = fresh
        self.fresh.move_to_end(table_id)
        while len(self.fresh) > self.size:
            self.fresh.popitem(last=False)

    async def wait_loading(self, table_id: str) -> bool:
        """Wait for the read of ``table_id`` another caller is doing; False if none is."""
        pending = self.loading.get(table_id)
        if pending is None:
            return False
        await asyncio.shield(pending)
        return True

    def start_loading(self, table_id: str) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.loading.setdefault(table_id, done)
        return done

    def done_loading(self, table_id: str, done: asyncio.Future[None]) -> None:
        if self.loading.get(table_id) is done:
            del self.loading[table_id]
        done.set_result(None)
