"""One research game over the engine: its settings, its start, and what each seat is paid at the
end. Shared by the PettingZoo environment and the OpenSpiel game. Standard library only.

Rewards (``reward=``), paid once, when the game ends:

- ``"score"`` (default): the seat's final score, the lower of its two tracks after final
  scoring (``outcome.players[].score``);
- ``"win"``: +1 for first place alone (solo: beating Victoria), -1 for any other place, 0 for a
  shared first place;
- ``"rank"``: 1 for first, 0 for last, evenly between (``(seats - rank) / (seats - 1)``; solo
  the two places are the player's and Victoria's).

A game cut short by ``max_moves`` pays 0 to every seat (a truncation, not an end).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app import rules

REWARDS = ("score", "win", "rank")


@dataclass(frozen=True)
class Settings:
    """What a research game is: the engine's options (undo always off) and the reward."""

    players: int = 2
    building_start: int | None = None
    random_locations: bool = False
    full_selection: bool = False
    reward: str = "score"
    max_moves: int | None = None  # cut the game short after this many moves (None: play it out)

    def __post_init__(self) -> None:
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}")
        if self.max_moves is not None and self.max_moves < 1:
            raise ValueError("max_moves must be at least 1 (or None)")
        rules.new_game(0, self.options())  # the engine judges the options

    def options(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "building_start": self.building_start,
            "random_locations": self.random_locations,
            "full_selection": self.full_selection,
            "undo": False,
        }


def start(seed: int, settings: Settings) -> rules.GameState:
    return rules.new_game(seed, settings.options())


def acting(state: rules.GameState) -> int | None:
    """The seat to move (of several deciding at once, the lowest), or None once finished."""
    seats = rules.to_act(state)
    return min(seats) if seats else None


def rewards(outcome: Any, reward: str) -> list[float]:
    """What each seat (index = seat) is paid for a finished game."""
    players = sorted(outcome["players"], key=lambda p: p["seat"])
    n = len(players)
    if reward == "score":
        return [float(p["score"]) for p in players]
    if n == 1:
        won = bool(outcome["won"])
        return [1.0 if won else (-1.0 if reward == "win" else 0.0)]
    if reward == "win":
        firsts = [p for p in players if p["rank"] == 1]
        return [(1.0 if len(firsts) == 1 else 0.0) if p["rank"] == 1 else -1.0 for p in players]
    return [(n - int(p["rank"])) / (n - 1) for p in players]
