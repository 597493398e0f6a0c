"""A finished game without playing it through the server, for tests and benchmarks.

``play_out`` takes a started table and lets the engine play its game in process, with the same
policy as the suite's players (mostly end the turn when allowed, else any legal move; seeded),
then stores what the move store writes for a move (app/tables/store.py): every move's log
row (``move_written``), the table's snapshot, version, status and clock through the same
conditional update, and — when the game ended — the finish hooks (the solo record and the
campaign) in the same transaction. After the commit the table's memory forgets it and the hub
hears one game notice, as after a move. The hub's listeners are queues of the app's event loop:
a caller on another thread (a test beside a TestClient) hands ``on_loop`` a way to run the
notice there (the client's ``portal.call``), as the server publishes from its loop.

A game of 90 moves costs about 30 ms this way, where playing it through the server costs about
600 requests.

The difference from the server's path: all the moves commit in one transaction, their time
stamps microseconds apart. Anything that asserts per-move timing plays through the server.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app import rules
from app.realtime.hub import Notice, NoticeKind
from app.tables import repository as repo
from app.tables.service import TableService
from app.tables.status import TableStatus
from app.tables.store import LogLine, move_written

# Chooses a move from the legal moves in their wire form (the HTTP API's ``legal_moves``).
Policy = Callable[[list[dict[str, Any]], random.Random], dict[str, Any]]
# Runs a call on the app's event loop thread and waits for it (e.g. a BlockingPortal's ``call``).
OnLoop = Callable[[Callable[[], None]], object]


def ending_turns(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A legal move that keeps a game moving: mostly end the turn when allowed, else any."""
    ending = [m for m in legal if m["kind"] == "end_turn"]
    if ending and rng.random() < 0.7:
        return ending[0]
    return rng.choice(legal)


class NotStarted(Exception):
    """``play_out`` was given a table with no game in play."""


def play_out(
    service: TableService,
    table_id: str,
    seed: int = 0,
    stop_after: int | None = None,
    policy: Policy = ending_turns,
    on_loop: OnLoop | None = None,
) -> int:
    """Play the started table ``table_id`` to its end (or ``stop_after`` moves) and store it as
    the server would; the table's version afterwards. ``seed`` seeds the policy's choices: the
    same seed and table give the same moves as the suite's HTTP players with that seed.
    ``on_loop`` runs the game notice on the app's event loop (None: publish here, for a caller
    on that loop or an app with no loop running)."""
    rng = random.Random(seed)
    with service.db.begin() as conn:
        row = repo.snapshot(conn, table_id)
        if row is None or row.status != TableStatus.PLAYING or row.state is None:
            raise NotStarted(f"table {table_id} has no game in play")
        state = rules.decode_state(row.state)
        seats, _holders = repo.game_seats_and_holders(conn, table_id)
        start, seen, version = row.version, row.seats_version, row.version
        finished = False
        last: rules.Transition | None = None
        rows: list[LogLine] = []
        played = 0
        while not finished and (stop_after is None or played < stop_after):
            seat = rules.to_act(state)[0]
            legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
            last = rules.apply_move(state, seat, policy(legal, rng))
            state = last.state
            finished = rules.outcome(state) is not None
            status = TableStatus.FINISHED if finished else TableStatus.PLAYING
            params, log_row, _entry = move_written(
                table_id, seat, f"f{version}", version, seen, last, None, None, status
            )
            rows.append(log_row)
            version += 1
            played += 1
        if last is None:
            return int(version)
        clock, deadline = service.pace.on_move(conn, table_id, start, seen, row.clock, state, seats)
        params["p_expected"], params["p_clock"], params["p_deadline"] = start, clock, deadline
        conn.execute(repo.LOG, rows)  # every log row in one statement (insertmanyvalues)
        assert repo.advance(conn, params) == 1, "the table moved while it was played out"
        if finished:
            for hook in service.play.finish_hooks:
                hook(conn, table_id)
    service.cache.forget(table_id)
    service.pace.remember(table_id, version, seen, clock)
    notice = Notice(table_id, NoticeKind.GAME, version)
    if on_loop is None:
        service.hub.publish(notice)
    else:
        on_loop(lambda: service.hub.publish(notice))
    return int(version)
