"""Campaign progression and best scores over scripted series of wins and losses (rules §8)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.solo.campaign import CampaignRules, SoloResult, record_sheet

RULES = CampaignRules(first_start=40, win_step=-5, loss_step=2)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def game(i: int, start: int, score: int, victoria: int, mode: str = "campaign") -> SoloResult:
    return SoloResult(
        finished_at=T0 + timedelta(hours=i),
        mode=mode,  # type: ignore[arg-type]
        building_start=start,
        cp=score,
        bp=score + 3,
        score=score,
        victoria_score=victoria,
        won=score > victoria,
        table_id=f"t{i}",
    )


def test_fresh_profile_starts_the_campaign_at_the_first_start_value() -> None:
    sheet = record_sheet(RULES, [])
    assert sheet["campaign"] == {
        "next_start": 40,
        "best_start": None,
        "best_score": None,
        "history": [],
    }
    assert sheet["high_scores"] == {}


def test_scripted_series_of_wins_and_losses() -> None:
    # win at 40 → 35; loss → 37; win → 32; win → 27; loss → 29; loss → 31; win → 26
    script = [(40, 70, 60), (35, 50, 55), (37, 61, 58), (32, 66, 60), (27, 40, 40), (29, 45, 60)]
    games: list[SoloResult] = []
    expected_next = [35, 37, 32, 27, 29, 31]
    for i, (start, score, victoria) in enumerate(script):
        games.append(game(i, start, score, victoria))
        sheet = record_sheet(RULES, games)
        assert sheet["campaign"]["next_start"] == expected_next[i], i
    # a tie (40 vs 40 at 27) is a loss: the lowest beaten start is 32
    assert sheet["campaign"]["best_start"] == 32
    assert sheet["campaign"]["best_score"] == 66
    assert [g["building_start"] for g in sheet["campaign"]["history"]] == [40, 35, 37, 32, 27, 29]
    won = [g["won"] for g in sheet["campaign"]["history"]]
    assert won == [True, False, True, True, False, False]


def test_higher_score_breaks_ties_between_wins_from_the_same_start() -> None:
    # 40 win → 35 win → 30 win → 25 loss → 27 loss → 29 loss → 31
    games = [
        game(0, 40, 60, 50),
        game(1, 35, 58, 50),
        game(2, 30, 55, 50),  # win at 30 with 55
        game(3, 25, 30, 50),  # loss → 27
        game(4, 27, 20, 50),  # loss → 29
        game(5, 29, 20, 50),  # loss → 31
    ]
    sheet = record_sheet(RULES, games)
    assert sheet["campaign"]["best_start"] == 30
    assert sheet["campaign"]["best_score"] == 55
    assert sheet["campaign"]["next_start"] == 31
    # beating her again from 30 later with a higher score improves the result
    more = [*games, game(6, 31, 40, 60), game(7, 33, 61, 50), game(8, 28, 40, 50)]
    # 31 loss → 33, 33 win → 28, 28 loss → 30
    sheet = record_sheet(RULES, more)
    assert sheet["campaign"]["next_start"] == 30
    assert (sheet["campaign"]["best_start"], sheet["campaign"]["best_score"]) == (30, 55)
    more.append(game(9, 30, 62, 50))
    sheet = record_sheet(RULES, more)
    assert (sheet["campaign"]["best_start"], sheet["campaign"]["best_score"]) == (30, 62)
    assert sheet["campaign"]["next_start"] == 25


def test_losses_only_climb_and_leave_no_campaign_result() -> None:
    games = [game(i, 40 + 2 * i, 10, 50) for i in range(4)]
    sheet = record_sheet(RULES, games)
    assert sheet["campaign"]["next_start"] == 48
    assert sheet["campaign"]["best_start"] is None
    assert sheet["campaign"]["best_score"] is None


def test_order_is_by_finish_time_not_by_input_order() -> None:
    games = [game(0, 40, 70, 60), game(1, 35, 10, 60)]
    sheet = record_sheet(RULES, list(reversed(games)))
    assert sheet["campaign"]["next_start"] == 37
    assert [g["building_start"] for g in sheet["campaign"]["history"]] == [40, 35]


def test_high_scores_keep_the_best_per_start_value_won_or_lost() -> None:
    games = [
        game(0, 20, 41, 60, mode="high_score"),
        game(1, 20, 47, 70, mode="high_score"),
        game(2, 20, 44, 30, mode="high_score"),
        game(3, 15, 38, 30, mode="high_score"),
        game(4, 40, 90, 30),  # a campaign game counts at its start value too
    ]
    sheet = record_sheet(RULES, games)
    assert sheet["high_scores"] == {"40": 90, "20": 47, "15": 38}
    # high-score games leave the campaign alone
    assert sheet["campaign"]["next_start"] == 35
    assert len(sheet["campaign"]["history"]) == 1
    assert len(sheet["results"]) == 5


def test_rules_numbers_come_from_the_components_data() -> None:
    from app.rules import data
    from app.solo.service import campaign_rules

    solo = data.RAW["solo"]
    assert campaign_rules() == CampaignRules(
        solo["campaign_first_start"], solo["campaign_win_step"], solo["campaign_loss_step"]
    )
    assert campaign_rules() == RULES  # the printed rules: 40, then -5 after a win, +2 after a loss
    other = CampaignRules.from_components(
        {"solo": {"campaign_first_start": 30, "campaign_win_step": -3, "campaign_loss_step": 1}}
    )
    assert record_sheet(other, [game(0, 30, 70, 60)])["campaign"]["next_start"] == 27
    assert record_sheet(other, [game(0, 30, 50, 60)])["campaign"]["next_start"] == 31
    assert record_sheet(other, [])["rules"] == {
        "campaign_first_start": 30,
        "campaign_win_step": -3,
        "campaign_loss_step": 1,
    }


def test_a_lost_campaign_game_is_the_best_score_of_its_start_value() -> None:
    # the player's report: 31 at 40, lost; the next campaign game starts 2 higher
    sheet = record_sheet(RULES, [game(0, 40, 31, 45)])
    assert sheet["high_scores"] == {"40": 31}
    assert sheet["campaign"]["next_start"] == 42
    assert (sheet["campaign"]["best_start"], sheet["campaign"]["best_score"]) == (None, None)
    # a high-score game from the same start only replaces it with a higher score
    sheet = record_sheet(RULES, [game(0, 40, 31, 45), game(1, 40, 29, 20, mode="high_score")])
    assert sheet["high_scores"] == {"40": 31}
