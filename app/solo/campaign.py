"""The solo record sheet, computed from a profile's results (pure: no database, no clock).

Rules §8: the best final score is kept per building start value (every solo game counts); the
campaign starts at ``campaign_first_start``, moves by ``campaign_win_step`` after a win and by
``campaign_loss_step`` after a loss, and its result is the lowest start value at which Victoria
was beaten (the higher score breaks ties between wins from that value). The numbers come from the
``solo`` section of the components data, never literals here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.solo.schemas import Mode, RecordSheet, SoloResultOut

MODES: tuple[Mode, ...] = ("campaign", "high_score")


@dataclass(frozen=True, slots=True)
class CampaignRules:
    first_start: int
    win_step: int
    loss_step: int

    @classmethod
    def from_components(cls, components: Mapping[str, Any]) -> CampaignRules:
        solo = components["solo"]
        return cls(
            first_start=int(solo["campaign_first_start"]),
            win_step=int(solo["campaign_win_step"]),
            loss_step=int(solo["campaign_loss_step"]),
        )

    def next_after(self, start: int, won: bool) -> int:
        return start + (self.win_step if won else self.loss_step)


@dataclass(frozen=True, slots=True)
class SoloResult:
    """One finished solo game, as the player's record sheet needs it."""

    finished_at: datetime
    mode: Mode
    building_start: int
    cp: int
    bp: int
    score: int
    victoria_score: int
    won: bool
    table_id: str | None = None

    def to_json(self) -> SoloResultOut:
        return {
            "table_id": self.table_id,
            "date": self.finished_at.isoformat(),
            "mode": self.mode,
            "building_start": self.building_start,
            "cp": self.cp,
            "bp": self.bp,
            "score": self.score,
            "victoria_score": self.victoria_score,
            "won": self.won,
        }


def next_campaign_start(rules: CampaignRules, campaign_games: Iterable[SoloResult]) -> int:
    """The start value of the next campaign game, given the campaign games in the order played."""
    start = rules.first_start
    for game in campaign_games:
        start = rules.next_after(game.building_start, game.won)
    return start


def campaign_best(campaign_games: Iterable[SoloResult]) -> tuple[int | None, int | None]:
    """(lowest start value with a win, the best score among wins from it), or (None, None)."""
    best: tuple[int, int] | None = None
    for game in campaign_games:
        if not game.won:
            continue
        key = (game.building_start, -game.score)
        if best is None or key < best:
            best = key
    if best is None:
        return None, None
    return best[0], -best[1]


def high_scores(results: Iterable[SoloResult]) -> dict[int, int]:
    """Best final score per building start value over every solo game, won or lost, campaign
    or high score (rules §8: the best final score is kept per start value)."""
    best: dict[int, int] = {}
    for game in results:
        if game.building_start not in best or game.score > best[game.building_start]:
            best[game.building_start] = game.score
    return dict(sorted(best.items(), reverse=True))


def record_sheet(rules: CampaignRules, results: Iterable[SoloResult]) -> RecordSheet:
    """The ``GET /api/profiles/me/solo`` body, from all of a profile's results in any order."""
    ordered = sorted(results, key=lambda r: (r.finished_at, r.table_id or ""))
    campaign = [r for r in ordered if r.mode == "campaign"]
    best_start, best_score = campaign_best(campaign)
    return {
        "campaign": {
            "next_start": next_campaign_start(rules, campaign),
            "best_start": best_start,
            "best_score": best_score,
            "history": [r.to_json() for r in campaign],
        },
        "high_scores": {str(k): v for k, v in high_scores(ordered).items()},
        "rules": {
            "campaign_first_start": rules.first_start,
            "campaign_win_step": rules.win_step,
            "campaign_loss_step": rules.loss_step,
        },
        "results": [r.to_json() for r in reversed(ordered)],
    }
