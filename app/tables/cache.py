"""The per-process memory of fresh tables, and catch-up reads shared between sockets.

The last committed move of each table in this process: the next move starts from its state and
the table's sockets catch up from it without reading the database. The memory is only a short
cut: a move from it is checked by the database (version and ``seats_version``), so a table
changed elsewhere costs one re-read, never a wrong move.
"""

from __future__ import annotations

from collections import OrderedDict

from app.realtime.hub import Notice, NoticeKind
from app.tables.types import Fresh

# Tables a process remembers (the state it last committed or read, about 11 kB each); the table
# that moved least recently is forgotten first and read from the database when it moves again.
FRESH_TABLES = 2000
# Tables whose last change heard is kept by its epoch (a few dozen bytes each); past that, the
# oldest are forgotten and a read of any table that began before them remembers nothing.
CHANGES_KEPT = 20_000


class TableCache:
    def __init__(self, size: int = FRESH_TABLES) -> None:
        self.size = size
        self.fresh: OrderedDict[str, Fresh] = OrderedDict()  # least recently moved first
        # Every change heard of a table (a lobby notice, local or relayed; a game notice of a
        # version this memory does not hold) advances the epoch, and is kept as the table's
        # last: a read or a move of a table that overlapped a change of that table remembers
        # nothing (its seats, or its state, may be stale). Other tables' changes do not matter
        # to it: a table that starts or changes seats does not make the moves of the others
        # forget their tables.
        self.epoch = 0
        self._changed_at: OrderedDict[str, int] = OrderedDict()  # table -> epoch of its last
        self._changes_forgotten = 0  # the newest epoch dropped from ``_changed_at``

    def heard(self, notice: Notice) -> None:
        """A hub watcher: a lobby notice makes the remembered seats of its table stale; a game
        notice of a version this memory does not hold (a move made elsewhere: another process,
        the sweeper; or of no version) makes its state stale. The game notice of the version
        remembered (the move this process made and remembered) changes nothing."""
        table_id = notice.table_id
        if notice.kind == NoticeKind.LOBBY:
            self._changed(table_id)
        elif notice.kind == NoticeKind.GAME:
            known = self.fresh.get(table_id)
            if known is None or notice.version is None or notice.version > known.version:
                self._changed(table_id)

    def _changed(self, table_id: str) -> None:
        self.epoch += 1
        self._changed_at[table_id] = self.epoch
        self._changed_at.move_to_end(table_id)
        while len(self._changed_at) > CHANGES_KEPT:
            _, dropped = self._changed_at.popitem(last=False)
            self._changes_forgotten = max(self._changes_forgotten, dropped)
        self.fresh.pop(table_id, None)

    def get(self, table_id: str) -> Fresh | None:
        return self.fresh.get(table_id)

    def forget(self, table_id: str) -> None:
        self.fresh.pop(table_id, None)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self.fresh

    def changed_since(self, table_id: str, epoch: int) -> bool:
        """A change of ``table_id`` was heard after ``epoch`` (or may have been: it is no longer
        kept)."""
        last = self._changed_at.get(table_id)
        return (self._changes_forgotten if last is None else last) > epoch

    def remember(self, table_id: str, fresh: Fresh, epoch: int) -> None:
        """Keep ``fresh`` as the table's latest known state, unless a change of the table was
        heard since ``epoch`` (its seats or its state may be stale) or a later version is known
        already. (Called from worker threads too: a notice heard while it is stored makes it
        forget again.)"""
        if self.changed_since(table_id, epoch):
            self.fresh.pop(table_id, None)
            return
        known = self.fresh.get(table_id)
        if known is not None and known.version >= fresh.version:
            return
        self.fresh[table_id] = fresh
        self.fresh.move_to_end(table_id)
        while len(self.fresh) > self.size:
            self.fresh.popitem(last=False)
        if self.changed_since(table_id, epoch):
            self.fresh.pop(table_id, None)
