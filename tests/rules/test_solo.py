"""Solo play: Victoria's deliveries and titles, her competition for title cards, the result."""

from __future__ import annotations

from typing import Any

from app.rules import data, encode_state, outcome, view_for

from .helpers import edit, random_playout, start
from .test_events import finish_turn, to_last_turn


def test_victoria_nothing_after_round_one() -> None:
    s = finish_turn(to_last_turn(start(1), current=None))
    assert view_for(s, 0)["victoria"] == {"cp": 0, "titles": []}


def test_victoria_round_two_delivers_and_takes_baron() -> None:
    s = edit(start(1), lambda t: t.update(round=2))
    s = to_last_turn(s, current=None)
    stone = data.MARKERS["stone"]["4"]
    bread = data.MARKERS["bread"]["4"]
    s = finish_turn(s)
    v = view_for(s, 0)
    baron = data.TITLE_CARDS["baron"][0]
    assert v["victoria"] == {
        "cp": stone[0] + bread[0] + baron,
        "titles": [{"id": "baron", "cp": baron}],
    }
    assert v["markers"]["stone"]["value"] == stone[1]
    assert v["markers"]["bread"]["value"] == bread[1]
    assert v["nobility"][0]["top"] == data.TITLE_CARDS["baron"][1]


def test_victoria_takes_the_next_card_when_player_took_the_top() -> None:
    def taken(t: dict[str, Any]) -> None:
        t["round"] = 2
        t["nobility"]["baron"].pop(0)
        t["ps"][0]["titles"] = [["baron", data.TITLE_CARDS["baron"][0]]]

    s = finish_turn(to_last_turn(edit(start(1), taken), current=None))
    assert view_for(s, 0)["victoria"]["titles"] == [
        {"id": "baron", "cp": data.TITLE_CARDS["baron"][1]}
    ]


def test_victoria_round_six_no_title_and_events_do_not_apply() -> None:
    def r6(t: dict[str, Any]) -> None:
        t["round"] = 6
        t["victoria"] = {"cp": 40, "titles": []}
        t["markers"]["stone"] = []
        t["markers"]["bread"] = []

    s = to_last_turn(edit(start(1), r6), current="a_long_summer")
    s = finish_turn(s)
    v = view_for(s, 0)
    assert v["phase"] == "finished"
    assert (
        v["victoria"]["cp"] == 40 + data.MARKERS["stone"]["board"] + data.MARKERS["bread"]["board"]
    )
    out = outcome(s)
    assert out is not None
    won = out["players"][0]["score"] > v["victoria"]["cp"]
    rank = 2 if won else 1
    assert out["victoria"] == {
        "cp": v["victoria"]["cp"],
        "score": v["victoria"]["cp"],
        "rank": rank,
    }
    assert out["won"] == won


def test_win_only_strictly_above() -> None:
    def tie(t: dict[str, Any]) -> None:
        t["phase"] = "finished"
        t["ps"][0].update(
            cp=50,
            bp=50,
            res={"wood": 0, "stone": 0, "cloth": 0, "grain": 0},
            goods={"bread": 0, "book": 0, "ring": 0, "gold": 0},
            favor=[],
        )
        t["victoria"]["cp"] = 50

    s = edit(start(1), tie)
    out = outcome(s)
    assert out is not None and out["won"] is False
    s = edit(s, lambda t: t["victoria"].update(cp=49))
    out = outcome(s)
    assert out is not None and out["won"] is True


def test_solo_full_game_victoria_titles() -> None:
    final, _ = random_playout(4, {"players": 1})
    v = view_for(final, 0)
    assert [t["id"] for t in v["victoria"]["titles"]] == ["baron", "count", "prince", "marquess"]
    assert "an_early_winter" not in encode_state(final)["event_deck"]


def test_the_solo_ranking_agrees_with_the_result() -> None:
    """One ranking of the player and Victoria: first place is hers on a loss or a tie."""

    def scores(player: int, victoria: int) -> Any:
        def put(t: dict[str, Any]) -> None:
            t["phase"] = "finished"
            t["ps"][0].update(
                cp=player,
                bp=player,
                res={"wood": 0, "stone": 0, "cloth": 0, "grain": 0},
                goods={"bread": 0, "book": 0, "ring": 0, "gold": 0},
                favor=[],
            )
            t["victoria"]["cp"] = victoria

        out = outcome(edit(start(1), put))
        assert out is not None and out["victoria"] is not None
        return out["won"], out["players"][0]["rank"], out["victoria"]["rank"]

    assert scores(31, 40) == (False, 2, 1)
    assert scores(40, 40) == (False, 2, 1)
    assert scores(41, 40) == (True, 1, 2)
