"""The shape of ``GET /api/rules/components``: the engine's components data, section by section.

Every top-level section of ``app/rules/data/components.json`` is named here (an unknown one is a
validation error, so nothing new leaves the server unseen); the nested numbers stay JSON values,
exactly as the engine reads them, so a page can point at any of them by its path.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, JsonValue


class RulesComponentsOut(BaseModel):
    """The printed numbers of Crown of Emara as the rules engine uses them (all public)."""

    model_config = ConfigDict(extra="forbid")

    about: str
    action_cards: list[str]
    slots: list[int]
    craftsman_cp: dict[str, JsonValue]
    countryside: dict[str, str]
    town: list[str]
    max_own_craftsmen_per_location: int
    huts: dict[str, JsonValue]
    markers: dict[str, JsonValue]
    market_books_cp: dict[str, int]
    wood_bp: dict[str, int]
    stone_bp: int
    castle_book_bp: int
    nobility: dict[str, JsonValue]
    advisors: dict[str, JsonValue]
    favor_tokens: dict[str, JsonValue]
    events: dict[str, JsonValue]
    solo: dict[str, JsonValue]
    final_scoring: dict[str, int]
    effects: dict[str, JsonValue]
