"""The analysis's stored measures, as JSON: what the worker writes per position and reads back."""

from __future__ import annotations

from typing import TypedDict

from app import rules


class Measured(TypedDict):
    """The measure at one position: the cost of the move played against the bot's preferred
    move (``[mean, standard error]``; None where the bot prefers the move played or no cost
    stood measured), and each measured seat's luck (seat as text → ``[mean, standard error]``)."""

    cost: list[float] | None
    luck: dict[str, list[float]]


class Preferred(TypedDict):
    """The bot's preferred move at a position, words-ready (``PreferredMove``'s shape)."""

    move: rules.EncodedMove
    events: list[rules.EngineEvent]
    summary: list[rules.PlayerSummary]
