"""My games: the tables a profile sits at, grouped and ordered for a player coming back."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any, cast

import orjson
from anyio import to_thread
from sqlalchemy import select

from app import rules
from app.db.models import GameTable, Profile, Seat
from app.db.session import Database
from app.pace import clock as pc
from app.tables.render import iso
from app.tables.status import TableStatus

MY_TABLES_LIMIT = 200
GROUP_ORDER = {"your_turn": 0, "playing": 1, "lobby": 2, "finished": 3}
FAR = float("inf")


def _epoch(moment: datetime | None) -> float:
    if moment is None:
        return 0.0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def result_of(state: Any, seat: int) -> dict[str, Any] | None:
    out = rules.outcome(state)
    if out is None:
        return None
    players = out["players"]
    mine = next((p for p in players if p["seat"] == seat), None)
    if mine is None:
        return None
    return {"place": mine["rank"], "of": len(players), "score": mine["score"], "won": out["won"]}


class MyGames:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def tables(self, profile_id: str) -> dict[str, Any]:
        return await to_thread.run_sync(self.tables_sync, profile_id)

    def tables_sync(self, profile_id: str) -> dict[str, Any]:
        with self.db.session() as s:
            mine = s.execute(
                select(GameTable, Seat.seat, Seat.bot_level)
                .join(Seat, Seat.table_id == GameTable.id)
                .where(Seat.profile_id == profile_id, GameTable.status != TableStatus.CLOSED)
                .order_by(GameTable.updated_at.desc())
                .limit(MY_TABLES_LIMIT)
            ).all()
            ids = [t.id for t, _, _ in mine]
            seats: dict[str, list[tuple[int, str | None, str | None, str | None]]] = {}
            if ids:
                rows = s.execute(
                    select(Seat.table_id, Seat.seat, Profile.name, Seat.bot_level, Profile.id)
                    .outerjoin(Profile, Profile.id == Seat.profile_id)
                    .where(Seat.table_id.in_(ids))
                    .order_by(Seat.seat)
                )
                for table_id, seat, name, level, pid in rows:
                    seats.setdefault(table_id, []).append((seat, name, level, pid))
            entries = [self._entry(t, seat, level, seats.get(t.id, [])) for t, seat, level in mine]
        entries.sort(key=lambda e: (GROUP_ORDER[e["group"]], e.pop("_order")))
        waiting = sum(1 for e in entries if e["group"] == "your_turn")
        etag = hashlib.sha256(orjson.dumps(entries)).hexdigest()[:24]
        return {"waiting": waiting, "etag": etag, "tables": entries}

    @staticmethod
    def _entry(
        t: GameTable,
        seat: int,
        level: str | None,
        seats: list[tuple[int, str | None, str | None, str | None]],
    ) -> dict[str, Any]:
        names: list[str | None] = [None] * t.seat_count
        for n, name, _, _ in seats:
            if 0 <= n < t.seat_count:
                names[n] = name
        humans = {n for n, _, lv, pid in seats if pid is not None and lv is None}
        host = next((name for _, name, _, pid in seats if pid == t.host_profile_id), None)
        blob = cast(pc.ClockBlob | None, t.clock)
        state = rules.decode_state(t.state) if t.state is not None else None
        my_turn = (
            t.status == TableStatus.PLAYING
            and state is not None
            and level is None
            and seat in rules.to_act(state)
        )
        deadline = pc.seat_deadlines(blob, humans).get(seat)
        updated = _epoch(t.updated_at)
        group = {
            TableStatus.LOBBY: "lobby",
            TableStatus.FINISHED: "finished",
        }.get(t.status, "your_turn" if my_turn else "playing")
        # my turn: the soonest deadline first; the rest: the latest change first
        order = (deadline if deadline is not None else FAR) if group == "your_turn" else -updated
        return {
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
            "_order": order,
        }
