"""My games: the tables a profile sits at, grouped and ordered for a player coming back."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import orjson
from anyio import to_thread
from sqlalchemy.orm import Session

from app import rules
from app.db.session import Database
from app.errors import NotFound
from app.isotime import iso
from app.mygames.schemas import Group, MyFinishedOut, MyResult, MyTable, MyTablesOut
from app.pace import clock as pc
from app.tables import published
from app.tables.status import TableStatus

if TYPE_CHECKING:
    from app.db.models import GameTable


OPEN_LIMIT = 200  # open tables (lobby, playing) in one answer: the most recently changed
FINISHED_PAGE = 20  # finished tables in the first answer, and a page's size by default
FINISHED_MAX_PAGE = 100
OPEN_STATUSES = (TableStatus.LOBBY, TableStatus.PLAYING)
# (table, my seat, the bot level playing my seat)
Row: TypeAlias = "tuple[GameTable, int, str | None]"
GROUP_ORDER: dict[Group, int] = {"your_turn": 0, "playing": 1, "lobby": 2, "finished": 3}
# The group of a table that is not in play (one in play: my turn, or not).
GROUP_OF: dict[TableStatus, Group] = {TableStatus.LOBBY: "lobby", TableStatus.FINISHED: "finished"}
FAR = float("inf")


def _epoch(moment: datetime | None) -> float:
    if moment is None:
        return 0.0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def result_of(state: Any, seat: int) -> MyResult | None:
    out = rules.outcome(state)
    if out is None:
        return None
    players = out["players"]
    mine = next((p for p in players if p["seat"] == seat), None)
    if mine is None:
        return None
    # solo: the player's place beside Victoria's, as the engine ranked them
    of = len(players) + (1 if out["victoria"] is not None else 0)
    return {"place": mine["rank"], "of": of, "score": mine["score"], "won": out["won"]}


def is_my_turn(t: GameTable, seat: int, level: str | None, state: Any) -> bool:
    """The table waits for me: in play, my seat to act, and no bot playing it."""
    return (
        t.status == TableStatus.PLAYING
        and state is not None
        and level is None
        and seat in rules.to_act(state)
    )


class MyGames:
    def __init__(self, db: Database) -> None:
        self.db = db

    def waiting_sync(self, profile_ids: list[str]) -> dict[str, int]:
        """Each profile's ``waiting`` as ``tables_sync`` counts it (my turn among my
        ``OPEN_LIMIT`` most recently changed open tables), without building the list."""
        counts: dict[str, int] = {}
        with self.db.read_session() as s:
            for pid in profile_ids:
                rows = self._rows(s, pid, OPEN_STATUSES, None, OPEN_LIMIT)
                counts[pid] = sum(
                    1
                    for t, seat, level in rows
                    if t.status == TableStatus.PLAYING
                    and level is None
                    and t.state is not None
                    and is_my_turn(t, seat, level, rules.decode_state(t.state))
                )
        return counts

    async def tables(self, profile_id: str) -> MyTablesOut:
        return await to_thread.run_sync(self.tables_sync, profile_id)

    def tables_sync(self, profile_id: str) -> MyTablesOut:
        """My open tables (at most ``OPEN_LIMIT``, the most recently changed) and the first page
        of my finished ones; ``finished_next`` continues them (``finished_page``)."""
        with self.db.read_session() as s:
            opened = self._rows(s, profile_id, OPEN_STATUSES, None, OPEN_LIMIT)
            done = self._rows(s, profile_id, (TableStatus.FINISHED,), None, FINISHED_PAGE + 1)
            ordered = self._entries(s, opened + done[:FINISHED_PAGE])
        more = len(done) > FINISHED_PAGE
        ordered.sort(key=lambda e: (GROUP_ORDER[e[1]["group"]], e[0]))
        entries = [e for _, e in ordered]
        waiting = sum(1 for e in entries if e["group"] == "your_turn")
        next_id = entries[-1]["id"] if more else None
        out = {"waiting": waiting, "tables": entries, "finished_next": next_id}
        etag = hashlib.sha256(orjson.dumps(out)).hexdigest()[:24]
        return {"waiting": waiting, "tables": entries, "finished_next": next_id, "etag": etag}

    async def finished_page(
        self, profile_id: str, after: str, limit: int = FINISHED_PAGE
    ) -> MyFinishedOut:
        return await to_thread.run_sync(self.finished_page_sync, profile_id, after, limit)

    def finished_page_sync(self, profile_id: str, after: str, limit: int) -> MyFinishedOut:
        """My finished tables after table ``after`` in the list (latest change first); ``next``
        continues them (None: that was the last)."""
        limit = max(1, min(limit, FINISHED_MAX_PAGE))
        with self.db.read_session() as s:
            mark = published.finished_mark(s, profile_id, after)
            if mark is None:
                raise NotFound("no such finished table of yours to continue after")
            rows = self._rows(s, profile_id, (TableStatus.FINISHED,), (mark[0], mark[1]), limit + 1)
            entries = [e for _, e in self._entries(s, rows[:limit])]
        more = len(rows) > limit
        return {"tables": entries, "next": entries[-1]["id"] if more else None}

    @staticmethod
    def _rows(
        s: Session,
        profile_id: str,
        statuses: tuple[TableStatus, ...],
        after: tuple[datetime, str] | None,
        limit: int,
    ) -> list[Row]:
        """(table, my seat, my seat's bot) of my tables in ``statuses``, latest change first (ties
        by id), after the (updated_at, id) mark when given."""
        return published.tables_where_seated(s, profile_id, statuses, after, limit)

    def _entries(self, s: Session, mine: list[Row]) -> list[tuple[float, MyTable]]:
        """Each table's entry, with the key it is ordered by within its group."""
        ids = [t.id for t, _, _ in mine]
        seats: dict[str, list[tuple[int, str | None, str | None, str | None]]] = {}
        if ids:
            for table_id, seat, name, level, pid in published.seats_of_tables(s, ids):
                seats.setdefault(table_id, []).append((seat, name, level, pid))
        return [self._entry(t, seat, level, seats.get(t.id, [])) for t, seat, level in mine]

    @staticmethod
    def _entry(
        t: GameTable,
        seat: int,
        level: str | None,
        seats: list[tuple[int, str | None, str | None, str | None]],
    ) -> tuple[float, MyTable]:
        names: list[str | None] = [None] * t.seat_count
        for n, name, _, _ in seats:
            if 0 <= n < t.seat_count:
                names[n] = name
        humans = {n for n, _, lv, pid in seats if pid is not None and lv is None}
        host = next((name for _, name, _, pid in seats if pid == t.host_profile_id), None)
        blob = cast(pc.ClockBlob | None, t.clock)
        state = rules.decode_state(t.state) if t.state is not None else None
        my_turn = is_my_turn(t, seat, level, state)
        deadline = pc.seat_deadlines(blob, humans).get(seat)
        updated = _epoch(t.updated_at)
        group: Group = GROUP_OF.get(t.status, "your_turn" if my_turn else "playing")
        # my turn: the soonest deadline first; the rest: the latest change first
        order = (deadline if deadline is not None else FAR) if group == "your_turn" else -updated
        return order, {
            "id": t.id,
            "name": t.name,
            "group": group,
            "status": t.status,
            "host_name": host,
            "names": names,
            "seat_count": t.seat_count,
            "my_seat": seat,
            "my_seat_bot": level,
            "my_turn": my_turn,
            "my_deadline": pc.iso_at(deadline) if deadline is not None else None,
            "my_bank": round(blob["left"][seat], 3) if blob is not None else None,
            "clock_since": pc.iso_at(blob["since"]) if blob is not None else None,
            "paused": bool(blob and blob["paused"]),
            "pace": (t.options or {}).get("pace", {"mode": "live", "clock": "none"}),
            "version": t.version,
            "updated_at": iso(t.updated_at),
            "result": result_of(state, seat) if t.status == TableStatus.FINISHED else None,
        }
