"""The contracts of a profile's history (responses only; the route takes no body)."""

from __future__ import annotations

from pydantic import BaseModel


class HistoryPlayer(BaseModel):
    seat: int
    name: str | None  # null: a bot of its own
    bot_level: str | None


class HistoryGame(BaseModel):
    """One finished game of mine: its replay id (the table's id), when it ended, who played,
    and my result (``rank`` among ``of``: in solo Victoria is ranked too)."""

    replay_id: str
    name: str | None
    finished_at: str | None
    players: int  # seats of the game (1: solo against Victoria)
    seats: list[HistoryPlayer]
    my_seat: int
    score: int
    cp: int
    bp: int
    rank: int
    of: int
    won: bool | None  # solo: beat Victoria
    building_start: int | None  # solo: Victoria's building start value
    victoria_score: int | None
    # A bot played my seat for part or all of the game (it held the seat at the end, or made
    # some of its moves): ``bot_moves`` of my seat's ``my_moves``.
    bot_played: bool
    my_moves: int
    bot_moves: int


class AverageByPlayers(BaseModel):
    players: int
    games: int
    average_score: float
    best_score: int
    wins: int  # games I ranked first in (solo: beat Victoria)


class VictoriaByStart(BaseModel):
    """Solo games at one building start value (the lower, the harder)."""

    building_start: int
    games: int
    won: int
    best_score: int
    average_score: float


class ScorePoint(BaseModel):
    replay_id: str
    finished_at: str | None
    players: int
    score: int
    rank: int


class HistoryOut(BaseModel):
    """A page of my finished games (newest first) and, over all of them, the averages by
    player count, the solo scores by start value and every score in order (oldest first). The
    figures leave out the games a bot played my seat in (``bot_games`` of them), unless asked
    ``with_bots``."""

    total: int
    offset: int
    limit: int
    next_offset: int | None
    games: list[HistoryGame]
    with_bots: bool  # the figures count the games a bot played for me
    bot_games: int
    by_players: list[AverageByPlayers]
    victoria: list[VictoriaByStart]
    timeline: list[ScorePoint]
