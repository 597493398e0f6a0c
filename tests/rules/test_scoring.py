"""Final scoring: leftovers, the automatic split, ranks and every tie-break."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import outcome
from app.rules.scoring import rank_players, split_leftover

from .helpers import edit, start


def finished(players: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
    def fn(t: dict[str, Any]) -> None:
        t["phase"] = "finished"
        for seat, spec in enumerate(players):
            p = t["ps"][seat]
            p["res"] = {"wood": 0, "stone": 0, "cloth": 0, "grain": 0}
            p["goods"] = {"bread": 0, "book": 0, "ring": 0, "gold": 0}
            p["favor"] = []
            p["titles"] = []
            for key, value in spec.items():
                if key in p["res"]:
                    p["res"][key] = value
                elif key in p["goods"]:
                    p["goods"][key] = value
                else:
                    p[key] = value

    return edit(start(len(players)), fn)


def test_rulebook_final_example() -> None:
    """David 66/68 -> 66, Ester 69/60 -> 60, Esmee 71/65 -> 65: David, Esmee, Ester."""
    s = finished([{"cp": 66, "bp": 68}, {"cp": 69, "bp": 60}, {"cp": 71, "bp": 65}])
    out = outcome(s)
    assert out is not None
    scores = [(p["seat"], p["score"], p["rank"]) for p in out["players"]]
    assert scores == [(0, 66, 1), (1, 60, 3), (2, 65, 2)]
    assert all(p["tiebreak"] is None for p in out["players"])


def test_leftover_points_and_split() -> None:
    s = finished(
        [
            {
                "cp": 40,
                "bp": 50,
                "ring": 2,
                "gold": 1,
                "book": 1,
                "bread": 1,
                "favor": [0, 1],
                "wood": 3,
                "stone": 2,
            },
            {"cp": 10, "bp": 10},
        ]
    )
    out = outcome(s)
    assert out is not None
    p0 = out["players"][0]
    # 2*2 + 1 + 1 + 1 + 2 + 5//2 = 11
    assert p0["leftover"] == {"points": 11, "to_cp": 11, "to_bp": 0}
    assert (p0["cp"], p0["bp"], p0["score"]) == (51, 50, 50)


@pytest.mark.parametrize(
    ("cp", "bp", "points", "expected_min"),
    [(10, 20, 5, 15), (20, 10, 5, 15), (10, 20, 15, 22), (30, 30, 3, 31), (0, 0, 0, 0)],
)
def test_split_maximises_lower_track(cp: int, bp: int, points: int, expected_min: int) -> None:
    to_cp, to_bp = split_leftover(cp, bp, points)
    assert to_cp + to_bp == points and to_cp >= 0 and to_bp >= 0
    best = max(min(cp + x, bp + points - x) for x in range(points + 1))
    assert min(cp + to_cp, bp + to_bp) == best == expected_min


def entry(score: int, high: int, titles: list[list[Any]]) -> dict[str, Any]:
    return {"score": score, "cp": score, "bp": high, "titles": titles}


def test_tiebreaks() -> None:
    e = rank_players([entry(50, 60, []), entry(50, 55, [])])
    assert [x["rank"] for x in e] == [1, 2] and [x["tiebreak"] for x in e] == ["higher_track"] * 2
    e = rank_players([entry(50, 60, [["baron", 5]]), entry(50, 60, [["baron", 5], ["count", 6]])])
    assert [x["rank"] for x in e] == [2, 1] and e[0]["tiebreak"] == "title"
    e = rank_players([entry(50, 60, [["baron", 4]]), entry(50, 60, [["baron", 5]])])
    assert [x["rank"] for x in e] == [2, 1] and e[1]["tiebreak"] == "title_cp"
    e = rank_players(
        [entry(50, 60, [["baron", 5]]), entry(50, 60, [["baron", 5]]), entry(40, 70, [])]
    )
    assert [x["rank"] for x in e] == [1, 1, 3]
    assert [x["tiebreak"] for x in e] == ["shared", "shared", None]


def test_tiebreak_through_outcome() -> None:
    s = finished([{"cp": 50, "bp": 58}, {"cp": 52, "bp": 50}])
    out = outcome(s)
    assert out is not None
    assert [p["rank"] for p in out["players"]] == [1, 2]
    assert [p["tiebreak"] for p in out["players"]] == ["higher_track", "higher_track"]
