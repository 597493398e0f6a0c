"""Postgres: a move is one statement sent from the event loop, and it tells the other processes.

The conditional update, the log insert and the notice to the other processes (``pg_notify`` on
the relay's channel, app/realtime/notify.py) are one prepared statement that commits by itself
(app/tables/repository.py ``ADVANCE_LOG_AND_NOTIFY``), sent through libpq on a connection of the
event loop's own pool (app/db/direct.py): one round trip, no worker thread. Postgres delivers the
notice only when the statement commits, so no other process hears of a move that did not land;
the notice this store answers is marked as relayed, and the relay does not send it again.

The statement logs no row unless the table moved, and a ``move_id`` the seat played already
breaks the log's unique key and undoes the update: either is a ``MoveConflict``. A move that ends
the game has the finish hooks run right after its commit, in a transaction of their own in a
worker thread (a hook that fails leaves the move committed, as it always did: the solo record
is then made by the next read of the record sheet).
"""

from __future__ import annotations

import psycopg
from anyio import to_thread

from app.db.direct import DirectPool
from app.db.session import Database
from app.errors import Malformed, Unavailable
from app.realtime.hub import Notice, NoticeKind
from app.realtime.notify import INSTANCE_ID, encode_hint
from app.tables import repository as repo
from app.tables.store import FinishHook, MoveConflict, MoveWrite


class PostgresMoves:
    """The move store of a Postgres database (app/tables/store.py)."""

    def __init__(
        self, db: Database, finished: FinishHook, channel: str, origin: str = INSTANCE_ID
    ) -> None:
        assert db.direct is not None
        self.db = db
        self.pool: DirectPool = db.direct
        self.finished = finished
        self.channel = channel
        self.origin = origin  # (the relay's: it skips the notices of its own process)

    async def store(self, move: MoveWrite) -> Notice:
        table_id, version = move.table_id, move.version
        values = repo.advance_and_log_values(move.advance, move.line)
        values["n_channel"] = self.channel
        values["n_payload"] = encode_hint(table_id, version, self.origin)
        try:
            written = await self.pool.count(repo.ADVANCE_LOG_AND_NOTIFY, values)
        except psycopg.errors.UniqueViolation:
            raise MoveConflict() from None
        except psycopg.DataError as exc:
            # A value Postgres refuses to store (a NUL in a text): bad input, nothing written.
            raise Malformed("the request holds characters that cannot be stored") from exc
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise Unavailable("the database is unavailable, try again") from exc
        if written != 1:
            raise MoveConflict()
        if move.finished:
            await to_thread.run_sync(self._finish, table_id)
        return Notice(table_id, NoticeKind.GAME, version, relayed=True)

    def _finish(self, table_id: str) -> None:
        with self.db.begin() as conn:
            self.finished(conn, table_id)

    async def close(self) -> None:
        await self.pool.close()
