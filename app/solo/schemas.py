"""The HTTP contracts of solo play: the start request (strict), the start reply, the sheet.

The record sheet is one shape, as app/solo/campaign.py and the service build it and as the
response declares it: ``TypedDict``s (``typing_extensions``', which pydantic reads before Python
3.12), checked once on the way out.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel
from typing_extensions import TypedDict

from app.strict import Strict
from app.tables.schemas import LobbyOut

Mode = Literal["campaign", "high_score"]


class SoloIn(Strict):
    mode: Mode
    # High score: any value the engine accepts (15 hard … 40 easy suggested); empty = the top
    # event card's value. Campaign: must be empty, the campaign decides.
    building_start: int | None = None


class SoloStartOut(BaseModel):
    table_id: str
    mode: Mode
    building_start: int
    resumed: bool
    table: LobbyOut


class SoloResultOut(TypedDict):
    table_id: str | None
    date: str
    mode: Mode
    building_start: int
    cp: int
    bp: int
    score: int
    victoria_score: int
    won: bool


class CampaignOut(TypedDict):
    next_start: int
    best_start: int | None
    best_score: int | None
    history: list[SoloResultOut]


class SoloRulesOut(TypedDict):
    campaign_first_start: int
    campaign_win_step: int
    campaign_loss_step: int


class OpenSoloOut(TypedDict):
    table_id: str
    mode: Mode
    building_start: int
    created_at: str


class RecordSheet(TypedDict):
    """The record sheet from a profile's results alone (app/solo/campaign.py)."""

    campaign: CampaignOut
    high_scores: dict[str, int]
    rules: SoloRulesOut
    results: list[SoloResultOut]


class SoloSheetOut(RecordSheet):
    """The record sheet: campaign, best score per start value, every result, open games."""

    open: list[OpenSoloOut]
