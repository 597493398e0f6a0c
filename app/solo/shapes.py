"""The solo answers as the service builds them: the shapes of ``SoloStartOut`` and
``SoloSheetOut`` (app/solo/schemas.py), which check them on the way out."""

from __future__ import annotations

from typing import Literal, TypedDict

from app.tables.answers import LobbyAnswer

Mode = Literal["campaign", "high_score"]


class SoloResultLine(TypedDict):
    table_id: str | None
    date: str
    mode: Mode
    building_start: int
    cp: int
    bp: int
    score: int
    victoria_score: int
    won: bool


class CampaignLine(TypedDict):
    next_start: int
    best_start: int | None
    best_score: int | None
    history: list[SoloResultLine]


class SoloRulesLine(TypedDict):
    campaign_first_start: int
    campaign_win_step: int
    campaign_loss_step: int


class OpenSoloLine(TypedDict):
    table_id: str
    mode: Mode
    building_start: int
    created_at: str


class RecordSheet(TypedDict):
    """The record sheet from a profile's results: campaign, best scores, every result."""

    campaign: CampaignLine
    high_scores: dict[str, int]
    rules: SoloRulesLine
    results: list[SoloResultLine]


class SoloSheet(RecordSheet):
    """The record sheet and the profile's unfinished solo games (``SoloSheetOut``)."""

    open: list[OpenSoloLine]


class SoloStarted(TypedDict):
    """A solo table made (or resumed) and started (``SoloStartOut``)."""

    table_id: str
    mode: Mode
    building_start: int
    resumed: bool
    table: LobbyAnswer
