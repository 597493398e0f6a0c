"""A profile's history: its finished games with results, and what they add up to.

Every result is read from the finished game's own final state (the engine's ``outcome``), the
same source as the end screen, My games and the replay: nothing is stored twice. The aggregates
cover the latest ``HISTORY_MAX`` finished games.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from anyio import to_thread

from app import rules
from app.db.session import Database
from app.isotime import iso
from app.tables import published, published_log

HISTORY_PAGE = 20
HISTORY_MAX_PAGE = 100
# The finished games the aggregates and the chart cover (the latest ones).
HISTORY_MAX = 2000


def _iso(moment: datetime | None) -> str | None:
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return iso(moment)


def game_of(row: published_log.FinishedRow) -> dict[str, Any] | None:
    """My result in one finished table (None when its state holds no outcome)."""
    if row.state is None:
        return None
    state = rules.decode_state(row.state)
    out = rules.outcome(state)
    if out is None:
        return None
    mine = next((p for p in out["players"] if p["seat"] == row.my_seat), None)
    if mine is None:
        return None
    victoria = out["victoria"]
    start = None
    if victoria is not None:
        start = (row.engine_options or {}).get("building_start")
        if start is None:
            start = rules.view_for(state, None)["options"]["building_start"]
    return {
        "replay_id": row.table_id,
        "name": row.name,
        "finished_at": _iso(row.finished_at),
        "players": row.seat_count,
        "my_seat": row.my_seat,
        "score": int(mine["score"]),
        "cp": int(mine["cp"]),
        "bp": int(mine["bp"]),
        "rank": int(mine["rank"]),
        "of": len(out["players"]) + (1 if victoria is not None else 0),
        "won": out["won"],
        "building_start": None if start is None else int(start),
        "victoria_score": None if victoria is None else int(victoria["score"]),
        "bot_level": row.bot_level,
    }


def _average(scores: list[int]) -> float:
    return round(sum(scores) / len(scores), 1)


def by_players(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        groups.setdefault(g["players"], []).append(g)
    return [
        {
            "players": n,
            "games": len(gs),
            "average_score": _average([g["score"] for g in gs]),
            "best_score": max(g["score"] for g in gs),
            "wins": sum(1 for g in gs if (g["won"] if g["won"] is not None else g["rank"] == 1)),
        }
        for n, gs in sorted(groups.items())
    ]


def against_victoria(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Solo games by start value, the hardest (lowest) first."""
    groups: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        if g["building_start"] is not None:
            groups.setdefault(g["building_start"], []).append(g)
    return [
        {
            "building_start": start,
            "games": len(gs),
            "won": sum(1 for g in gs if g["won"]),
            "best_score": max(g["score"] for g in gs),
            "average_score": _average([g["score"] for g in gs]),
        }
        for start, gs in sorted(groups.items())
    ]


class HistoryService:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def history(
        self, profile_id: str, offset: int, limit: int, with_bots: bool = False
    ) -> dict[str, Any]:
        return await to_thread.run_sync(self.history_sync, profile_id, offset, limit, with_bots)

    def history_sync(
        self, profile_id: str, offset: int, limit: int, with_bots: bool = False
    ) -> dict[str, Any]:
        """The page of games, and the figures: over the games I played myself, unless
        ``with_bots`` (then over the games a bot played my seat in, for part or all, too)."""
        limit = max(1, min(limit, HISTORY_MAX_PAGE))
        offset = max(0, offset)
        with self.db.session() as s:
            rows = published_log.finished(s, profile_id, HISTORY_MAX)
            games: list[dict[str, Any]] = []
            seen: set[str] = set()
            for row in rows:
                g = game_of(row) if row.table_id not in seen else None
                seen.add(row.table_id)
                if g is not None:
                    games.append(g)
            moves = published_log.my_moves(s, profile_id, [g["replay_id"] for g in games])
            page = games[offset : offset + limit]
            seats = published.seats_named(s, [g["replay_id"] for g in page])
        for g in games:
            made, by_bot = moves.get(g["replay_id"], (0, 0))
            g["my_moves"], g["bot_moves"] = made, by_bot
            g["bot_played"] = by_bot > 0 or g.pop("bot_level") is not None
        for g in page:
            g["seats"] = seats.get(g["replay_id"], [])
        total = len(games)
        counted = games if with_bots else [g for g in games if not g["bot_played"]]
        return {
            "total": total,
            "offset": offset,
            "limit": limit,
            "next_offset": offset + limit if offset + limit < total else None,
            "games": page,
            "with_bots": with_bots,
            "bot_games": sum(1 for g in games if g["bot_played"]),
            "by_players": by_players(counted),
            "victoria": against_victoria(counted),
            "timeline": [
                {k: g[k] for k in ("replay_id", "finished_at", "players", "score", "rank")}
                for g in reversed(counted)
            ],
        }
