"""Typed contracts of ``explain_for``: what each piece on the board is, and what each legal move
of one seat would give that seat now.

Texts are not made here: every note names a catalogue key (``explain.…`` in static/i18n) and the
values its placeholders take. A parameter is a number, an identifier the client names in words
(a location, resource, advisor, title, event, card or seat), or a count of items per kind (a cost
or a reward). docs/explain.md describes the shape.
"""

from __future__ import annotations

from typing import Any, TypedDict

ExplainParam = int | str | dict[str, int]


class ElementNote(TypedDict):
    key: str  # a catalogue key, e.g. "explain.marker.bread"
    params: dict[str, ExplainParam]
    detail: str | None  # a second catalogue key without placeholders (the card's, advisor's text)
    rule: str  # the anchor of the rules page that covers it (/rules#<rule>)
    moves: list[int]  # indices into ``Explanation.moves`` of the legal moves that involve it


class MarkerChange(TypedDict):
    marker: str  # "gift.wood", "donation.grain", "stone", "bread"
    before: int
    after: int
    removed: bool  # the marker left the board: its printed board value applies from now on


class MoveEffect(TypedDict):
    move: dict[str, Any]  # the legal move as ``legal_moves`` lists it (wire form)
    known: bool  # False: the move reveals what no one may know yet (the next event)
    gains: dict[str, int]  # figure -> change for the seat (cp, bp, resources, goods, pieces)
    markers: list[MarkerChange]
    blind_draws: list[str]  # hidden draws whose content is not promised: "favor_tokens", "cards"
    ends_turn: bool
    ends_round: bool


class Explanation(TypedDict):
    seat: int | None
    elements: dict[str, ElementNote]
    moves: list[MoveEffect]


# The pieces a seat counts besides its resources and goods (PlayerView fields, counted).
PIECE_FIGURES: tuple[str, ...] = ("craftsmen", "advisors", "titles", "favor_tokens")
