"""A profile's history: its finished games with results, and what they add up to.

Every result is read from the finished game's own final state (the engine's ``outcome``), the
same source as the end screen, My games and the replay: nothing is stored twice. The aggregates
cover the latest ``HISTORY_MAX`` finished games.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TypedDict

from anyio import to_thread

from app import rules
from app.db.session import Database
from app.history.schemas import (
    AverageByPlayers,
    HistoryGame,
    HistoryOut,
    ScorePoint,
    VictoriaByStart,
)
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


class Result(TypedDict):
    """My result in one finished game, read from its final state (``HistoryGame`` without the
    seats and the moves), and the bot level that held my seat at the end (None: I did)."""

    replay_id: str
    name: str | None
    finished_at: str | None
    players: int
    my_seat: int
    score: int
    cp: int
    bp: int
    rank: int
    of: int
    won: bool | None
    building_start: int | None
    victoria_score: int | None
    bot_level: str | None


def game_of(row: published_log.FinishedRow) -> Result | None:
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


def by_players(games: list[Result]) -> list[AverageByPlayers]:
    groups: dict[int, list[Result]] = {}
    for g in games:
        groups.setdefault(g["players"], []).append(g)
    return [
        AverageByPlayers(
            players=n,
            games=len(gs),
            average_score=_average([g["score"] for g in gs]),
            best_score=max(g["score"] for g in gs),
            wins=sum(1 for g in gs if (g["won"] if g["won"] is not None else g["rank"] == 1)),
        )
        for n, gs in sorted(groups.items())
    ]


def against_victoria(games: list[Result]) -> list[VictoriaByStart]:
    """Solo games by start value, the hardest (lowest) first."""
    groups: dict[int, list[Result]] = {}
    for g in games:
        if g["building_start"] is not None:
            groups.setdefault(g["building_start"], []).append(g)
    return [
        VictoriaByStart(
            building_start=start,
            games=len(gs),
            won=sum(1 for g in gs if g["won"]),
            best_score=max(g["score"] for g in gs),
            average_score=_average([g["score"] for g in gs]),
        )
        for start, gs in sorted(groups.items())
    ]


class HistoryService:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def history(
        self, profile_id: str, offset: int, limit: int, with_bots: bool = False
    ) -> HistoryOut:
        return await to_thread.run_sync(self.history_sync, profile_id, offset, limit, with_bots)

    def history_sync(
        self, profile_id: str, offset: int, limit: int, with_bots: bool = False
    ) -> HistoryOut:
        """The page of games, and the figures: over the games I played myself, unless
        ``with_bots`` (then over the games a bot played my seat in, for part or all, too)."""
        limit = max(1, min(limit, HISTORY_MAX_PAGE))
        offset = max(0, offset)
        with self.db.session() as s:
            rows = published_log.finished(s, profile_id, HISTORY_MAX)
            games: list[Result] = []
            seen: set[str] = set()
            for row in rows:
                g = game_of(row) if row.table_id not in seen else None
                seen.add(row.table_id)
                if g is not None:
                    games.append(g)
            moves = published_log.my_moves(s, profile_id, [g["replay_id"] for g in games])
            page = games[offset : offset + limit]
            seats = published.seats_named(s, [g["replay_id"] for g in page])

        def bot_played(g: Result) -> bool:
            return moves.get(g["replay_id"], (0, 0))[1] > 0 or g["bot_level"] is not None

        def game(g: Result) -> HistoryGame:
            made, by_bot = moves.get(g["replay_id"], (0, 0))
            shown = {k: v for k, v in g.items() if k != "bot_level"}
            return HistoryGame(
                **shown,
                seats=seats.get(g["replay_id"], []),
                bot_played=bot_played(g),
                my_moves=made,
                bot_moves=by_bot,
            )

        total = len(games)
        counted = games if with_bots else [g for g in games if not bot_played(g)]
        return HistoryOut(
            total=total,
            offset=offset,
            limit=limit,
            next_offset=offset + limit if offset + limit < total else None,
            games=[game(g) for g in page],
            with_bots=with_bots,
            bot_games=sum(1 for g in games if bot_played(g)),
            by_players=by_players(counted),
            victoria=against_victoria(counted),
            timeline=[
                ScorePoint(
                    replay_id=g["replay_id"],
                    finished_at=g["finished_at"],
                    players=g["players"],
                    score=g["score"],
                    rank=g["rank"],
                )
                for g in reversed(counted)
            ],
        )
