"""Explanations of the board for one viewer (``GET /api/tables/{id}/explain``).

The engine's ``explain_for`` does the work; this module reads the table's state, asks it for the
viewer's seat (a spectator: the public notes, no moves) and remembers the answer per table
version and seat, so a table's explanations are computed once per move, however often they are
asked for. The memory is bounded: the least recently used answers are forgotten first.
"""

from __future__ import annotations

from collections import OrderedDict

from anyio import to_thread

from app import rules
from app.db.session import Database
from app.tables.feed import started
from app.tables.types import Viewer

# Answers kept (table, version, seat); one is a few kB.
EXPLAIN_CACHE = 512


class ExplainAnswer(rules.Explanation):
    """The engine's explanation for a seat at one table version (``ExplainOut``)."""

    version: int


class Explainer:
    def __init__(self, db: Database, size: int = EXPLAIN_CACHE) -> None:
        self.db = db
        self.size = size
        self.memory: OrderedDict[tuple[str, int, int | None], ExplainAnswer] = OrderedDict()
        self.computed = 0  # how many answers were computed (not remembered): for tests

    async def explain(self, viewer: Viewer) -> ExplainAnswer:
        return await to_thread.run_sync(self._explain, viewer)

    def _explain(self, viewer: Viewer) -> ExplainAnswer:
        with self.db.session() as s:
            t, blob = started(s, viewer.table_id)
            key = (t.id, t.version, viewer.seat)
            known = self.memory.get(key)
            if known is not None:
                self.memory.move_to_end(key)
                return known
            state = rules.decode_state(blob)
            version = t.version
        explained = rules.explain_for(state, viewer.seat)
        out: ExplainAnswer = {"version": version, **explained}
        self.computed += 1
        self.memory[key] = out
        while len(self.memory) > self.size:
            self.memory.popitem(last=False)
        return out
