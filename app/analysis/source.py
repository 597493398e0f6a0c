"""The record behind a replay id, for the analysis: read with the records feature's own
repository and export (no access check here: the service checks access with the records service
before it queues anything, and the worker only reads replays a permitted person queued)."""

from __future__ import annotations

from app.db.session import Database
from app.records import published as records
from app.records.replay import Replayed, engine_options, played, replay_record, stored_record
from app.records.service import TABLE_REPLAY_ID_LENGTH, table_record
from app.records.shapes import RecordDoc
from app.tables.status import TableStatus


def load_record(db: Database, replay_id: str) -> RecordDoc | None:
    """The record (JSON form) of a finished table or an imported replay; None if there is none
    (a table not finished has no record)."""
    with db.session() as s:
        if len(replay_id) == TABLE_REPLAY_ID_LENGTH:
            t = records.table(s, replay_id)
            if t is None or t.status != TableStatus.FINISHED or t.seed is None:
                return None
            return table_record(s, t)
        row = records.imported(s, replay_id)
        return None if row is None else stored_record(row.record)


def replay_of(record: RecordDoc) -> Replayed:
    return replay_record(int(record["seed"]), engine_options(record), played(record))
