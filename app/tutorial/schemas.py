"""The HTTP contracts of the guided first game."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from app.strict import Strict
from app.tutorial.hints import Step
from app.tutorial.status import GuideStatus


class HintOut(BaseModel):
    """The next step of the game for the caller's seat at a guided table.

    ``key`` names the words in the client's catalogue (``guide.*``), ``params`` fill them (ids of
    cards, locations, councilors, advisors, titles, events: the client words them). ``targets``
    name the screen elements to point at: ``move`` (the button of ``move``), ``loc:<location>``,
    ``card:<card>``, ``councilor:<seat>:<rondel>``, ``hut:<location>:<index>``,
    ``nobility:<title>``, ``advisor:<advisor>``, ``player:<seat>:slot:<n>``, ``end-turn``.
    ``move`` is the suggested move exactly as ``legal_moves`` lists it (null when there is
    nothing to do: waiting, the round's end, done). ``rules``: an anchor of the /rules page.
    ``version``: the game version the hint was computed from."""

    table_id: str
    version: int
    seat: int
    step: Step
    key: str
    params: dict[str, str | int]
    targets: list[str]
    move: dict[str, Any] | None
    rules: str | None
    turn: int | None


class GuideIn(Strict):
    """What the person did with the guided game: played it to its end or dismissed it."""

    status: Literal["finished", "dismissed"]  # GuideStatus values (strict: a plain string)


class GuideOut(BaseModel):
    guide: GuideStatus | None
