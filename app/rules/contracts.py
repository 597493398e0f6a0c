"""Typed contracts of what the engine hands out: the per-seat view, the outcome and the events.

Standard-library ``TypedDict``s only (the engine stays pure). The JSON shapes are documented in
docs/view.md and docs/events.md; these types are their checked form.
"""

from __future__ import annotations

from typing import Required, TypedDict

from .undo import UndoPoint

# ---------------------------------------------------------------------------------------------
# Outcome.


class SourcePoints(TypedDict):
    """Points of one track by source (app/rules/breakdown.py ``SOURCES``); they sum to the track.
    ``paid`` is never above 0 (CP paid away), every other source never below."""

    start: int
    titles: int
    craftsmen: int
    advisors: int
    deliveries: int
    books: int
    favor: int
    events: int
    paid: int
    leftovers: int
    unrecorded: int


class PointsBreakdown(TypedDict):
    """Where a player's CP and BP came from."""

    cp: SourcePoints
    bp: SourcePoints


class Leftover(TypedDict):
    points: int
    to_cp: int
    to_bp: int


class OutcomePlayer(TypedDict):
    seat: int
    cp: int
    bp: int
    score: int
    rank: int
    leftover: Leftover
    tiebreak: str | None  # "higher_track" | "title" | "title_cp" | "shared" | None
    points: PointsBreakdown  # the final tracks by source, leftovers included


class OutcomeVictoria(TypedDict):
    cp: int
    score: int
    rank: int  # 1 unless the player's score is strictly above hers; the player's is the other


class Outcome(TypedDict):
    players: list[OutcomePlayer]
    victoria: OutcomeVictoria | None
    won: bool | None


# ---------------------------------------------------------------------------------------------
# View.


class OptionsView(TypedDict):
    building_start: int
    random_locations: bool
    full_selection: bool
    start_player: int
    undo: bool


class VisitView(TypedDict):
    location: str
    via: str
    done: list[str]
    fresh: list[int]


class BonusUsedView(TypedDict):
    raise_title: bool
    hire_craftsman: bool
    hire_advisor: bool


class TurnView(TypedDict):
    seat: int
    number: int
    card: str | None
    slot: int | None
    card_action_done: bool
    moved: bool
    bonus_used: BonusUsedView
    advisors_used: list[str]
    visit: VisitView | None
    undo: list[UndoPoint]


class EventCardView(TypedDict):
    id: str
    timing: str


class HutView(TypedDict):
    cost: dict[str, int]
    occupant: int | None


class MarkerView(TypedDict):
    value: int
    steps_left: int
    removed: bool


class MarkersView(TypedDict):
    gift: dict[str, MarkerView]
    donation: dict[str, MarkerView]
    stone: MarkerView
    bread: MarkerView


class AdvisorsView(TypedDict):
    display: dict[str, list[str]]
    b_top: str | None
    b_left: int
    costs: dict[str, dict[str, int]]


class NobilityView(TypedDict):
    id: str
    cost: dict[str, int]
    top: int | None
    left: int


class FavorView(TypedDict):
    pile: int
    discard: int


class TokenView(TypedDict):
    id: int
    location: str
    reward: dict[str, int]


class CraftsmanView(TypedDict):
    location: str
    hut: int


class TitleView(TypedDict):
    id: str
    cp: int


class PlayerView(TypedDict):
    seat: int
    cp: int
    bp: int
    score: int
    resources: dict[str, int]
    goods: dict[str, int]
    craftsmen_left: int
    craftsmen: list[CraftsmanView]
    advisors: list[str]
    titles: list[TitleView]
    favor_tokens: list[TokenView]
    slots: dict[str, str | None]
    hand_size: int
    deck_size: int
    turns_taken: int
    points: PointsBreakdown  # the tracks by source (no leftovers until the outcome)


class DecisionView(TypedDict, total=False):
    kind: Required[str]  # "keep_favor" | "event_option" | "choose_resource" | "place_councilor"
    tokens: list[TokenView]  # keep_favor
    event: str  # event_option


class MeView(TypedDict):
    seat: int
    hand: list[str]
    decision: DecisionView | None


class VictoriaView(TypedDict):
    cp: int
    titles: list[TitleView]


class View(TypedDict):
    schema: int
    players: int
    options: OptionsView
    phase: str
    round: int
    statue: int
    to_act: list[int]
    turn: TurnView | None
    event: EventCardView | None
    event_top: EventCardView | None
    events_left: int
    rondels: dict[str, list[str]]
    councilors: list[dict[str, str]]
    huts: dict[str, list[HutView]]
    markers: MarkersView
    advisors: AdvisorsView
    nobility: list[NobilityView]
    favor: FavorView
    players_state: list[PlayerView]
    me: MeView | None
    victoria: VictoriaView | None
    outcome: Outcome | None


# ---------------------------------------------------------------------------------------------
# Events: one shape for every kind; ``type`` is always present, the other fields by type as in
# docs/events.md (``from`` is not an identifier, hence the functional form).

EngineEvent = TypedDict(
    "EngineEvent",
    {
        "type": Required[str],
        "seat": int,
        "private": int,
        "amount": int,
        "base": int,
        "why": str,
        "items": dict[str, int],
        "round": int,
        "statue": int,
        "event": str | None,
        "timing": str,
        "boxed": str,
        "number": int,
        "card": str,
        "slot": int,
        "councilor": str,
        "from": str,
        "to": str,
        "steps": int,
        "location": str,
        "via": str,
        "option": str,
        "cp": int,
        "title": str,
        "count": int,
        "cards": list[str],
        "outcome": Outcome,
        "resource": str | int | None,
        "bread": int,
        "marker": str,
        "value": int,
        "removed": bool,
        "tokens": list[TokenView],
        "token": TokenView,
        "pile": int,
        "hut": int,
        "advisor": str,
    },
    total=False,
)


# ---------------------------------------------------------------------------------------------
# Moves: the wire form (``encode_move``), as in moves.md: ``kind`` and that kind's fields
# (``moves.KINDS`` says which a kind needs; ``from`` is not an identifier, hence the form).

EncodedMove = TypedDict(
    "EncodedMove",
    {
        "kind": Required[str],
        "card": str,
        "slot": int,
        "councilor": str,
        "location": str,
        "hut": int,
        "pay": dict[str, int],
        "advisor": str,
        "hire": str,
        "extra": list[str],
        "resource": str,
        "count": int,
        "token": int,
        "option": str,
        "bread": int,
        "take": str,
        "give": str,
        "from": str,
        "to": int,
    },
    total=False,
)
