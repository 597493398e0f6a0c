"""What one move's statement costs the server's process: psycopg's cursor against libpq itself.

    .venv/bin/python bench/direct.py [--statements N] [--runs R]

Makes a fresh Postgres database with the app's tables, starts a table with a game, and sends the
move's statement (``ADVANCE_LOG_AND_NOTIFY``, app/tables/repository.py: the table's update, the
log row and the notice to the other processes in one statement) N times on one connection, two
ways: through a psycopg cursor
(``AsyncConnection.execute(..., prepare=True)``, the way app/db/direct.py sent it before) and
through ``DirectPool.count`` (libpq itself, app/db/direct.py now). Prints the CPU time of this
process per statement (both wait for Postgres alike; only the client's work differs), the best of
R runs each, alternating.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from psycopg.types.json import Json  # noqa: E402

from app import rules  # noqa: E402
from app.db.direct import DirectPool, json_text, libpq_dsn  # noqa: E402
from app.devtools.stack import TempDatabase  # noqa: E402
from app.tables.repository import ADVANCE_LOG_AND_NOTIFY, advance_and_log_values  # noqa: E402
from app.tables.status import TableStatus  # noqa: E402


def values(version: int, state: dict[str, Any]) -> dict[str, Any]:
    params = {
        "p_id": "bench",
        "p_expected": version,
        "p_seats": 0,
        "p_state": state,
        "p_version": version + 1,
        "p_status": TableStatus.PLAYING,
        "p_at": datetime.now(UTC),
        "p_clock": None,
        "p_deadline": None,
    }
    row = {
        "version": version + 1,
        "seat": 0,
        "move": {"kind": "end_turn"},
        "events": [],
        "move_id": f"m{version}",
        "created_at": datetime.now(UTC),
    }
    values = advance_and_log_values(params, row)
    values["n_channel"], values["n_payload"] = "emara_bench", "{}"
    return values


def cursor_params(given: dict[str, Any]) -> dict[str, Any]:
    """The parameters as psycopg's cursor took them: JSON wrapped, enums as their value."""
    out: dict[str, Any] = {}
    for key, value in given.items():
        if key in ("p_state", "p_clock", "m_move", "m_events"):
            value = Json(value, dumps=json_text)
        elif isinstance(value, TableStatus):
            value = value.value
        out[key] = value
    return out


async def measure(dsn: str, statements: int, runs: int) -> None:
    state = rules.state_blob(rules.new_game(7, {"players": 4}))
    # the original psycopg-style SQL: %(name)s placeholders
    named = ADVANCE_LOG_AND_NOTIFY.sql
    for i, name in reversed(list(enumerate(ADVANCE_LOG_AND_NOTIFY.names, 1))):
        named = named.replace(f"${i}", f"%({name})s")
    conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    pool = DirectPool(dsn, size=1)

    async def timed(send: Callable[[dict[str, Any]], Awaitable[int]]) -> float:
        """CPU per statement of ``send`` (the rows it returns), from a table at version 0."""
        await conn.execute(
            "UPDATE game_table SET version = 0, status = 'playing', seats_version = 0 "
            "WHERE id = 'bench'"
        )
        await conn.execute("DELETE FROM move WHERE table_id = 'bench'")
        started = time.process_time()
        for version in range(statements):
            assert await send(values(version, state)) == 1
        return (time.process_time() - started) / statements

    async def by_cursor(given: dict[str, Any]) -> int:
        cur = await conn.execute(named, cursor_params(given), prepare=True)
        return len(await cur.fetchall())

    async def by_libpq(given: dict[str, Any]) -> int:
        return await pool.count(ADVANCE_LOG_AND_NOTIFY, given)

    cursor, libpq = [], []
    for _ in range(runs):
        cursor.append(await timed(by_cursor))
        libpq.append(await timed(by_libpq))
    await pool.close()
    await conn.close()
    print(f"{statements} statements × {runs} runs, CPU of this process per statement (best):")
    print(f"  psycopg cursor (execute, prepared)  {min(cursor) * 1e6:7.1f} µs")
    print(f"  libpq (DirectPool.count)            {min(libpq) * 1e6:7.1f} µs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--statements", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with TempDatabase() as db:
        dsn = libpq_dsn(db.url)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO profile (id, name, recovery_hash, created_at, generation) "
                "VALUES ('host', 'Host', '', now(), 0)"
            )
            conn.execute(
                "INSERT INTO game_table (id, invite_code, host_profile_id, seat_count, options, "
                "status, version, seats_version, created_at, updated_at) VALUES ('bench', 'x', "
                "'host', 4, '{}', 'playing', 0, 0, now(), now())"
            )
        asyncio.run(measure(dsn, args.statements, args.runs))


if __name__ == "__main__":
    main()
