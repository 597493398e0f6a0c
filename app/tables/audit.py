"""The replay check: the move log, replayed from the seed, gives the stored snapshot exactly."""

from __future__ import annotations

from app import rules
from app.db.session import Database
from app.tables import repository as repo


class Audit:
    def __init__(self, db: Database) -> None:
        self.db = db

    def replay_matches(self, table_id: str) -> bool:
        """The log is read up to the snapshot's version: a move committed between the two reads
        (they see different snapshots of the database) belongs to a later snapshot."""
        with self.db.session() as s:
            t = repo.table(s, table_id)
            if t is None or t.state is None or t.seed is None:
                return True
            records = repo.full_log(s, t.id, upto=t.version)
            if [r.version for r in records] != list(range(1, t.version + 1)):
                return False
            played = [(r.seat, r.move) for r in records]
            state = rules.replay(t.seed, t.engine_options or {}, played)
            return bool(rules.encode_state(state) == t.state)

    def count_moves(self, table_id: str) -> int:
        with self.db.session() as s:
            return repo.count_moves(s, table_id)
