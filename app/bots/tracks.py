"""Predicted final tracks: the strong bot's value at tables, fitted on games it played.

A seat's final citizen and building points before the leftovers, and its leftover points, are
each predicted as a linear function of what it holds now (resources, goods, craftsmen by where
they stand, advisors, favor tokens, titles, cards bought, how far apart its tracks are), with
weights that change with the turns it has left (`bench/fit_tracks.py` fits them on games of the
strong bot against three greedy seats; `app/bots/data/tracks.json` holds them). The value is the
expected lower track: the two predictions are uncertain (their spread, fitted per turns left, is
in the file), so a position whose tracks are predicted level but far from certain is worth less
than the lower of the two means; the leftovers then go where final scoring puts them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from app import rules
from app.bots.value import ADVISOR_PER_TURN, ROUNDS, TURNS_PER_ROUND
from app.rules import data

RESOURCES = ("wood", "stone", "cloth", "grain")
GOODS = ("bread", "book", "ring", "gold")
FAVOR = ("cp", "bp", "gold", "ring", "book")
ADVISORS = tuple(sorted(ADVISOR_PER_TURN))
CRAFTS = tuple(sorted(data.COUNTRYSIDE))  # where a craftsman stands: what it yields
START_CARDS = 9
MAX_LEFT = ROUNDS * TURNS_PER_ROUND

# The names of the features, in the order of the weights in the file.
FEATURES: tuple[str, ...] = (
    "one",
    *(f"r_{k}" for k in RESOURCES),
    *(f"g_{k}" for k in GOODS),
    *(f"c_{k}" for k in CRAFTS),
    *(f"a_{a}" for a in ADVISORS),
    *(f"f_{k}" for k in FAVOR),
    "titles",
    "cards",
    "d",
    "absd",
)
TARGETS = ("cp", "bp", "leftover")
TOTAL_WEIGHT = 0.08  # as in `value.estimate`: a small pull towards more points overall


def features(p: Any) -> list[float]:
    """One seat's features, read from its part of the engine's state."""
    res, goods = p["res"], p["goods"]
    favor = dict.fromkeys(FAVOR, 0.0)
    for t in p["favor"]:
        for k, v in data.FAVOR_TOKENS[t]["reward"].items():
            favor[k] += v
    d = (p["cp"] - p["bp"]) / 10.0
    owned = set(p["advisors"])
    cards = len(p["hand"]) + len(p["deck"]) + len(p["played"])
    cards += sum(1 for c in p["slots"] if c)
    crafts = dict.fromkeys(CRAFTS, 0.0)
    for where, _ in p["craftsmen"]:
        crafts[where] += 1.0
    return [
        1.0,
        *(float(res.get(k, 0)) for k in RESOURCES),
        *(float(goods.get(k, 0)) for k in GOODS),
        *(crafts[k] for k in CRAFTS),
        *(1.0 if a in owned else 0.0 for a in ADVISORS),
        *(favor[k] for k in FAVOR),
        float(len(p["titles"])),
        float(cards - START_CARDS),
        d,
        abs(d),
    ]


@dataclass(frozen=True)
class Model:
    """Per turns left (index 0..18): each target's weights, and the spread of CP and BP."""

    weights: tuple[tuple[tuple[float, ...], ...], ...]  # [left][target] -> weights
    spread: tuple[tuple[float, float, float], ...]  # [left] -> (sd CP, sd BP, correlation)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Model:
        if tuple(doc["features"]) != FEATURES:
            raise ValueError("the model was fitted on other features")
        basis = doc["basis"]  # weights per target: [constant, x left/18, x (left/18)^2]
        weights = []
        for left in range(MAX_LEFT + 1):
            t = left / MAX_LEFT
            weights.append(
                tuple(
                    tuple(
                        basis[target][0][i] + t * basis[target][1][i] + t * t * basis[target][2][i]
                        for i in range(len(FEATURES))
                    )
                    for target in TARGETS
                )
            )
        spread = tuple((float(a), float(b), float(c)) for a, b, c in doc["spread"])
        return cls(tuple(weights), spread)


@cache
def model() -> Model:
    text = resources.files("app.bots.data").joinpath("tracks.json").read_text("utf-8")
    return Model.from_json(json.loads(text))


def expected_min(mc: float, mb: float, sc: float, sb: float, rho: float) -> float:
    """E[min(C, B)] for C, B jointly normal (means, spreads, correlation)."""
    theta = math.sqrt(max(sc * sc + sb * sb - 2.0 * rho * sc * sb, 0.0))
    if theta < 1e-6:
        return min(mc, mb)
    a = (mb - mc) / theta
    cdf = 0.5 * (1.0 + math.erf(a / math.sqrt(2.0)))
    pdf = math.exp(-a * a / 2.0) / math.sqrt(2.0 * math.pi)
    return mc * cdf + mb * (1.0 - cdf) - theta * pdf


def turns_left(st: Any, seat: int) -> int:
    """Turns the seat still has in the game, its unfinished turn included (`value.turns_left`)."""
    this_round = max(TURNS_PER_ROUND - int(st["ps"][seat]["turns_taken"]), 0)
    return max((ROUNDS - int(st["round"])) * TURNS_PER_ROUND + this_round, 0)


def predicted(state: rules.GameState, seat: int) -> float:
    """The seat's expected final score in `state` (its lower track), from its own holdings."""
    st = state.tree
    p = st["ps"][seat]
    left = turns_left(st, seat) if st["phase"] != "finished" else 0
    m = model()
    x = features(p)
    wc, wb, wf = m.weights[left]
    c = float(p["cp"]) + sum(w * v for w, v in zip(wc, x, strict=True))
    b = float(p["bp"]) + sum(w * v for w, v in zip(wb, x, strict=True))
    f = max(sum(w * v for w, v in zip(wf, x, strict=True)), 0.0)
    sc, sb, rho = m.spread[left]
    low = min(expected_min(c, b, sc, sb, rho) + f, (c + b + f) / 2.0)
    return low + TOTAL_WEIGHT * (c + b + f)
