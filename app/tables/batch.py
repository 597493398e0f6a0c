"""SQLite: a batch of moves written with three statements, not four per move.

The thread that writes moves (app/tables/writer.py) holds the database's one writer while it
writes. Each statement hands the interpreter's lock (the GIL) to the event loop and waits to get
it back, up to a switch interval; with a savepoint, an update, an insert and a release per move,
a batch of a dozen moves waited for the GIL some fifty times, and held the writer (and every
move of the batch its acknowledgement) 10-70 ms where SQLite needed 1-2.

Here one batch of moves of distinct tables is written as:

1. the log rows, one INSERT of all of them; a row that breaks the log's unique keys (the
   version taken, or the seat's move_id played already) is skipped (``ON CONFLICT DO
   NOTHING``), and its move is not written;
2. the tables of the logged rows, one UPDATE from the moves' values, each row on the same
   conditions as a move alone (app/tables/repository.py ``ADVANCE``: the version expected, the
   seats the move was judged with, the game in play);
3. the log rows whose table did not move, deleted (rarely a statement at all).

What each move changed is then what it would have changed alone, inside the caller's
transaction. Parameters are bound as Core binds them (app/db/binds.py). Needs SQLite 3.35
(``RETURNING``; Python 3.11's builds carry 3.39 or later): the store refuses to start on an older
library (app/tables/writer.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Dialect

from app.db.binds import Binds
from app.tables import repository as repo
from app.tables.status import TableStatus

# The conditional update's parameters as they come from app/tables/store.py ``Advance``: the
# values set, then the conditions (besides the status).
_SET = ("p_state", "p_version", "p_status", "p_at", "p_clock", "p_deadline")
_SET_COLUMNS = ("state", "version", "status", "updated_at", "clock", "deadline")
_WHERE = ("p_id", "p_expected", "p_seats")


# The first SQLite with ``RETURNING`` (``UPDATE … FROM`` came with 3.33).
SQLITE_NEEDED = (3, 35, 0)


def batch_supported(version: tuple[int, int, int] = sqlite3.sqlite_version_info) -> bool:
    """Whether the SQLite library runs these statements."""
    return version >= SQLITE_NEEDED


def _rows(n: int, width: int) -> str:
    one = "(" + ", ".join("?" * width) + ")"
    return ", ".join([one] * n)


class BatchWrite:
    """The statements of a batch, with the engine's binds."""

    def __init__(self, dialect: Dialect) -> None:
        self._log = Binds(repo.LOG, dialect, repo.LOG_COLUMNS)
        self._advance = Binds(repo.ADVANCE, dialect)
        self._playing = self._advance.one("p_playing", TableStatus.PLAYING)
        table, move = repo.TABLE.name, repo.MOVE.name
        self._insert = (
            f"INSERT INTO {move} ({', '.join(repo.LOG_COLUMNS)}) VALUES {{rows}} "
            "ON CONFLICT DO NOTHING RETURNING id, table_id"
        )
        names = ("v_" + c for c in (*_SET_COLUMNS, "id", "expected", "seats"))
        assigned = ", ".join(f"{c} = v.v_{c}" for c in _SET_COLUMNS)
        self._update = (
            f"WITH v({', '.join(names)}) AS (VALUES {{rows}}) "
            f"UPDATE {table} SET {assigned} FROM v "
            f"WHERE {table}.id = v.v_id AND {table}.version = v.v_expected "
            f"AND {table}.seats_version = v.v_seats AND {table}.status = ? "
            f"RETURNING {table}.id"
        )
        self._delete = f"DELETE FROM {move} WHERE id IN ({{ids}})"

    def write(
        self,
        conn: sqlite3.Connection,
        moves: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]],
    ) -> list[bool]:
        """Write ``moves`` (the update's parameters and the log row of each; no two of one
        table) in ``conn``'s transaction: whether each was written."""
        assert len({params["p_id"] for params, _ in moves}) == len(moves), "distinct tables"
        args = [v for _, row in moves for v in self._log.row(row, repo.LOG_COLUMNS)]
        sql = self._insert.format(rows=_rows(len(moves), len(repo.LOG_COLUMNS)))
        logged = {table_id: rowid for rowid, table_id in conn.execute(sql, args).fetchall()}
        if not logged:
            return [False] * len(moves)
        advancing = [params for params, _ in moves if params["p_id"] in logged]
        args = [v for p in advancing for v in self._advance.row(p, (*_SET, *_WHERE))]
        args.append(self._playing)
        sql = self._update.format(rows=_rows(len(advancing), len(_SET) + len(_WHERE)))
        moved = {table_id for (table_id,) in conn.execute(sql, args).fetchall()}
        stale = [rowid for table_id, rowid in logged.items() if table_id not in moved]
        if stale:
            conn.execute(self._delete.format(ids=", ".join("?" * len(stale))), stale)
        return [params["p_id"] in moved for params, _ in moves]
