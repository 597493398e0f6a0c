"""Final scoring: leftover points split to maximise the lower track, ranks and tie-breaks."""

from __future__ import annotations

from typing import Any, cast

from . import data
from .breakdown import by_source
from .contracts import Outcome, OutcomePlayer, PointsBreakdown, SourcePoints
from .state import St

TIEBREAKS: tuple[str, ...] = ("higher_track", "title", "title_cp")


def leftover_points(p: St) -> int:
    f = data.FINAL_SCORING
    goods = p["goods"]
    points: int = (
        f["ring"] * goods["ring"]
        + f["gold"] * goods["gold"]
        + f["book"] * goods["book"]
        + f["bread"] * goods["bread"]
        + f["favor_token"] * len(p["favor"])
        + sum(p["res"].values()) // f["resources_per_point"]
    )
    return points


def split_leftover(cp: int, bp: int, points: int) -> tuple[int, int]:
    """Leftover points to CP and to BP: fill the lower track up to the higher, then halve.

    Every split that maximises the lower track gives the same pair of final tracks up to
    which track is called which, so this one is as good as any.
    """
    first = min(points, abs(cp - bp))
    rest = points - first
    to_cp = (first if cp < bp else 0) + (rest + 1) // 2
    to_bp = (first if cp >= bp else 0) + rest // 2
    return to_cp, to_bp


def final_tracks(p: St) -> dict[str, int]:
    points = leftover_points(p)
    to_cp, to_bp = split_leftover(p["cp"], p["bp"], points)
    return {
        "cp": p["cp"] + to_cp,
        "bp": p["bp"] + to_bp,
        "points": points,
        "to_cp": to_cp,
        "to_bp": to_bp,
    }


def points_breakdown(p: St, to_cp: int = 0, to_bp: int = 0) -> PointsBreakdown:
    """The player's tracks by source; ``to_cp``/``to_bp`` are leftover points added to them."""
    return {
        "cp": cast(SourcePoints, by_source(p, "cp", {"leftovers": to_cp})),
        "bp": cast(SourcePoints, by_source(p, "bp", {"leftovers": to_bp})),
    }


def _key(entry: dict[str, Any]) -> tuple[int, int, int, int]:
    titles: list[list[Any]] = entry["titles"]
    title_rank = len(titles)
    title_cp = titles[-1][1] if titles else 0
    return (entry["score"], max(entry["cp"], entry["bp"]), title_rank, title_cp)


def rank_players(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rank entries (each with score, cp, bp, titles); sets ``rank`` and ``tiebreak``."""
    keys = [_key(e) for e in entries]
    for i, e in enumerate(entries):
        better = sum(1 for k in keys if k > keys[i])
        e["rank"] = better + 1
        same_score = [j for j in range(len(entries)) if j != i and keys[j][0] == keys[i][0]]
        if not same_score:
            e["tiebreak"] = None
            continue
        depth = 0
        shared = False
        for j in same_score:
            level = next((k for k in range(1, 4) if keys[j][k] != keys[i][k]), None)
            if level is None:
                shared = True
            else:
                depth = max(depth, level)
        e["tiebreak"] = "shared" if shared else TIEBREAKS[depth - 1]
    return entries


def compute_outcome(st: St) -> Outcome:
    entries: list[dict[str, Any]] = []
    for seat, p in enumerate(st["ps"]):
        t = final_tracks(p)
        entries.append(
            {
                "seat": seat,
                "cp": t["cp"],
                "bp": t["bp"],
                "score": min(t["cp"], t["bp"]),
                "leftover": {"points": t["points"], "to_cp": t["to_cp"], "to_bp": t["to_bp"]},
                "titles": p["titles"],
                "points": points_breakdown(p, t["to_cp"], t["to_bp"]),
            }
        )
    rank_players(entries)
    players: list[OutcomePlayer] = [
        {
            "seat": e["seat"],
            "cp": e["cp"],
            "bp": e["bp"],
            "score": e["score"],
            "rank": e["rank"],
            "leftover": e["leftover"],
            "tiebreak": e["tiebreak"],
            "points": e["points"],
        }
        for e in entries
    ]
    out: Outcome = {"players": players, "victoria": None, "won": None}
    if st["players"] == 1:
        # Solo: one ranking of the player and Victoria; she keeps first place on a tie (§8).
        vcp: int = st["victoria"]["cp"]
        won = players[0]["score"] > vcp
        players[0]["rank"] = 1 if won else 2
        out["victoria"] = {"cp": vcp, "score": vcp, "rank": 2 if won else 1}
        out["won"] = won
    return out
