"""The HTTP contracts of solo play: the start request (strict), the start reply, the sheet."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from app.strict import Strict
from app.tables.schemas import LobbyOut


class SoloIn(Strict):
    mode: Literal["campaign", "high_score"]
    # High score: any value the engine accepts (15 hard … 40 easy suggested); empty = the top
    # event card's value. Campaign: must be empty, the campaign decides.
    building_start: int | None = None


class SoloStartOut(BaseModel):
    table_id: str
    mode: Literal["campaign", "high_score"]
    building_start: int
    resumed: bool
    table: LobbyOut


class SoloResultOut(BaseModel):
    table_id: str | None
    date: str
    mode: Literal["campaign", "high_score"]
    building_start: int
    cp: int
    bp: int
    score: int
    victoria_score: int
    won: bool


class CampaignOut(BaseModel):
    next_start: int
    best_start: int | None
    best_score: int | None
    history: list[SoloResultOut]


class SoloRulesOut(BaseModel):
    campaign_first_start: int
    campaign_win_step: int
    campaign_loss_step: int


class OpenSoloOut(BaseModel):
    table_id: str
    mode: Literal["campaign", "high_score"]
    building_start: int
    created_at: str


class SoloSheetOut(BaseModel):
    """The record sheet: campaign, best score per start value, every result, open games."""

    campaign: CampaignOut
    high_scores: dict[str, int]
    rules: SoloRulesOut
    results: list[SoloResultOut]
    open: list[OpenSoloOut]
