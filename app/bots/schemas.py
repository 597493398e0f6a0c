"""The HTTP contracts of bot seats: the request body (strict); responses are the lobby."""

from __future__ import annotations

from typing import Literal

from app.strict import Strict

# The levels of ``app.bots.LEVELS`` a seat can be given.
BotLevel = Literal["random", "greedy", "strong"]


class BotIn(Strict):
    level: BotLevel
