"""Position value: an estimate of one seat's final score, read from that seat's view.

The estimate is the final score the seat would reach if what it holds were turned into points:
goods and resources count at what they can still become while turns remain (wood and stone at the
construction site, bread and books for citizen points, gold and rings towards titles), and at their
final-scoring worth once the game is nearly over. Citizen and building points are balanced the way
the final split balances them, since only the lower track counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from app import rules

ROUNDS = 6
TURNS_PER_ROUND = 3

# Final-scoring worth (rules §10).
FINAL_POINTS = {"ring": 2.0, "gold": 1.0, "book": 1.0, "bread": 1.0}
RESOURCE_FINAL = 0.5
FAVOR_FINAL = 1.0

# What one unit is still worth while turns remain, split by the track it tends to feed:
# (citizen points, building points, either).
POTENTIAL: dict[str, tuple[float, float, float]] = {
    "wood": (0.0, 3.4, 0.0),
    "stone": (2.2, 3.8, 0.0),
    "grain": (1.6, 0.0, 0.2),
    "cloth": (0.6, 0.0, 1.0),
    "gold": (1.0, 0.0, 1.4),
    "ring": (2.2, 0.0, 1.0),
    "book": (0.0, 0.0, 3.4),
    "bread": (2.6, 0.0, 0.0),
}

# Worth of a kept favor token by reward (it is also a point at the end if never cashed).
FAVOR_REWARD = {"cp": (3.0, 0.0, 0.0), "bp": (0.0, 3.0, 0.0)}

# Per remaining turn of the seat: what an owned craftsman or advisor keeps yielding.
CRAFTSMAN_PER_TURN = 0.45
ADVISOR_PER_TURN = {
    "baker": 0.6,
    "schoolmarm": 0.5,
    "bailiff": 0.6,
    "dressmaker": 0.8,
    "landlord": 0.5,
    "merchant": 0.4,
    "chamberlain": 0.4,
    "scholar": 0.3,
    "mayoress": 0.5,
    "steward": 0.5,
    "abbess": 0.4,
    "toolmaker": 0.7,
}

# Advisors whose yield each turn feeds one track (rules: Baker bread, Dressmaker and Mayoress CP;
# Bailiff, Landlord and Toolmaker BP). The paced value (the strong bot's) counts their yield on
# that track, so it does not count on balancing with points that can only go to one side.
ADVISOR_TRACK = {
    "baker": "cp",
    "dressmaker": "cp",
    "mayoress": "cp",
    "bailiff": "bp",
    "landlord": "bp",
    "toolmaker": "bp",
}

TOTAL_WEIGHT = 0.08  # a small pull towards more points overall, once the tracks are balanced


class FavorReward(TypedDict):
    reward: dict[str, int]


class Holdings(TypedDict):
    """What the estimate reads of one seat: its tracks, what it holds and its turns taken."""

    cp: int
    bp: int
    resources: dict[str, int]
    goods: dict[str, int]
    craftsmen: list[object]  # only counted
    advisors: list[str]
    favor_tokens: list[FavorReward]
    turns_taken: int


class OwnPart(TypedDict, total=False):
    """The part of a seat's view the estimate reads, built by a bot from a state it sampled."""

    phase: str
    round: int
    outcome: rules.Outcome | None
    players_state: Mapping[int, Holdings]


# A seat's full view (`rules.View`) or the part of it a bot builds itself (`OwnPart`).
Position = rules.View | OwnPart


def turns_left(view: Position, seat: int) -> int:
    """Turns this seat still has in the game (its current unfinished turn included)."""
    if view.get("phase") == "finished":
        return 0
    rnd = max(int(view.get("round") or 1), 1)
    me = view["players_state"][seat]
    taken = int(me.get("turns_taken") or 0)
    left = (ROUNDS - rnd) * TURNS_PER_ROUND + max(TURNS_PER_ROUND - taken, 0)
    return max(left, 0)


def _balanced(cp: float, bp: float, flex: float) -> float:
    """The best min(cp + x, bp + flex - x) over 0 <= x <= flex."""
    lo, hi = (cp, bp) if cp <= bp else (bp, cp)
    if hi - lo >= flex:
        return lo + flex
    return (cp + bp + flex) / 2.0


def estimate(view: Position, seat: int, pace: float | None = None) -> float:
    """Estimated final score of `seat`, from any seat's view (its public part suffices).

    `pace`: at most this many points a remaining turn come from what the seat's holdings can
    still become (potential, craftsmen, advisors, favor rewards); None: no such limit. The
    holdings' final-scoring worth always counts in full. With a pace, the yield of an advisor
    that feeds one track (`ADVISOR_TRACK`) counts on that track, outside the pace.
    """
    outcome = view.get("outcome")
    if outcome:
        for p in outcome.get("players", []):
            if p.get("seat") == seat:
                return float(p["score"]) + TOTAL_WEIGHT * (float(p["cp"]) + float(p["bp"]))
    me = view["players_state"][seat]
    left = turns_left(view, seat)
    # How much of the potential is still reachable: fades out over the last turns.
    reach = min(1.0, left / 4.0)
    # Conversion capacity: stock beyond a few units per remaining turn counts at final points.
    capacity = 2.0 + 1.5 * left

    advisors = list(me.get("advisors") or [])
    cp = float(me.get("cp") or 0)
    bp = float(me.get("bp") or 0)
    if pace is not None:
        # The yield still to come of a one-track advisor counts as points on its track, outside
        # the pace (the advisor is hired: its yield needs no further action to be placed).
        on_track = [a for a in advisors if a in ADVISOR_TRACK]
        later = max(left - 1, 0)
        cp += sum(ADVISOR_PER_TURN[a] for a in on_track if ADVISOR_TRACK[a] == "cp") * later
        bp += sum(ADVISOR_PER_TURN[a] for a in on_track if ADVISOR_TRACK[a] == "bp") * later
        advisors = [a for a in advisors if a not in ADVISOR_TRACK]
    flex = 0.0
    # What is still to come (scaled down to `pace` below), apart from the tracks and final worth.
    fcp = fbp = fflex = 0.0
    stock: list[tuple[float, float, float, float]] = []  # (cp, bp, flex, final) per unit
    for res, n in (me.get("resources") or {}).items():
        pc, pb, pf = POTENTIAL.get(res, (0.0, 0.0, 0.5))
        stock.extend([(pc, pb, pf, RESOURCE_FINAL)] * int(n))
    for good, n in (me.get("goods") or {}).items():
        pc, pb, pf = POTENTIAL.get(good, (0.0, 0.0, 1.0))
        stock.extend([(pc, pb, pf, FINAL_POINTS.get(good, 1.0))] * int(n))
    # Most valuable units are converted first.
    stock.sort(key=lambda u: -(u[0] + u[1] + u[2]))
    used = 0.0
    for pc, pb, pf, final in stock:
        if used < capacity:
            w = reach
            used += 1.0
        else:
            w = 0.0
        # Potential replaces the final worth; never worth less than the final points.
        pot = pc + pb + pf
        if w * pot >= final:
            fcp += w * pc
            fbp += w * pb
            fflex += w * pf
        else:
            flex += final
    for tok in me.get("favor_tokens") or []:
        reward = tok.get("reward") or {}
        gain_cp = gain_bp = gain_flex = 0.0
        for k, v in reward.items():
            if k in FAVOR_REWARD:
                c, b, _ = FAVOR_REWARD[k]
                gain_cp += c * v / 3.0
                gain_bp += b * v / 3.0
            else:
                pc, pb, pf = POTENTIAL.get(k, (0.0, 0.0, 1.0))
                gain_cp += pc * v
                gain_bp += pb * v
                gain_flex += pf * v
        if reach > 0.3:
            fcp += reach * gain_cp
            fbp += reach * gain_bp
            fflex += reach * gain_flex
            flex += (1 - reach) * FAVOR_FINAL
        else:
            flex += FAVOR_FINAL
    n_craft = len(me.get("craftsmen") or [])
    fflex += CRAFTSMAN_PER_TURN * n_craft * max(left - 1, 0)
    for adv in advisors:
        fflex += ADVISOR_PER_TURN.get(adv, 0.0) * max(left - 1, 0)
    total = cp + bp + flex + fcp + fbp + fflex
    future = fcp + fbp + fflex
    scale = 1.0 if pace is None or future <= pace * left else pace * left / future
    score = _balanced(cp + scale * fcp, bp + scale * fbp, flex + scale * fflex)
    return score + TOTAL_WEIGHT * total
