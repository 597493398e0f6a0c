"""Fit the strong bot's table value (`app/bots/tracks.py`) on games from bench/track_games.py.

    .venv/bin/python bench/fit_tracks.py /tmp/tracks-0.jsonl /tmp/tracks-1.jsonl
                                          [--ridge 30] [--out app/bots/data/tracks.json]

Only the strong seat's positions are used: the value predicts what the strong bot itself goes on
to score. Three ridge regressions (numpy), one per target: the final CP and the final BP before
the leftovers, less the tracks now, and the leftover points. Each feature's weight is a quadratic
in the turns left (features x 1, x t, x t², t = turns left / 18). The spread of the CP and BP
residuals and their correlation, per turns left, go into the file too (`tracks.expected_min`).

Before writing, it fits on four fifths of the games and prints, on the fifth held out, how well
the model predicts the final score (root mean square error), beside the paced estimate of
`app/bots/value.py` made as good as it can be by a straight line per turns left (so only how the
two order positions is compared).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from app.bots import tracks
from app.bots.lookahead import STRONG_PACE
from app.bots.onestep import holdings
from app.bots.value import OwnPart, estimate

N = len(tracks.FEATURES)


def load(paths: list[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["level"] == "strong":
                rows.append(row)
    return rows


def design(rows: list[dict[str, Any]]) -> np.ndarray:
    x = np.array([tracks.features(r["p"]) for r in rows], float)
    t = np.array([r["left"] / tracks.MAX_LEFT for r in rows], float)[:, None]
    return np.hstack([x, x * t, x * t * t])


def targets(rows: list[dict[str, Any]]) -> list[np.ndarray]:
    return [
        np.array([r["final_cp"] - r["p"]["cp"] for r in rows], float),
        np.array([r["final_bp"] - r["p"]["bp"] for r in rows], float),
        np.array([r["leftover"] for r in rows], float),
    ]


def fit(rows: list[dict[str, Any]], ridge: float) -> dict[str, Any]:
    x = design(rows)
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0  # the constant is not shrunk
    weights = [np.linalg.solve(x.T @ x + penalty, x.T @ y) for y in targets(rows)]
    res_cp, res_bp = (y - x @ w for y, w in zip(targets(rows)[:2], weights[:2], strict=True))
    left = np.array([r["left"] for r in rows])
    spread = [[0.0, 0.0, 0.0]]
    for n in range(1, tracks.MAX_LEFT + 1):
        m = left == n
        if m.sum() < 10:
            spread.append([3.0, 3.0, 0.0])
            continue
        rho = float(np.corrcoef(res_cp[m], res_bp[m])[0, 1])
        spread.append([float(res_cp[m].std()), float(res_bp[m].std()), rho])
    return {
        "features": list(tracks.FEATURES),
        "basis": {
            target: [list(map(float, w[k * N : (k + 1) * N])) for k in range(3)]
            for target, w in zip(tracks.TARGETS, weights, strict=True)
        },
        "spread": spread,
        "games": len({r["seed"] for r in rows}),
        "ridge": ridge,
    }


def predict(doc: dict[str, Any], rows: list[dict[str, Any]]) -> np.ndarray:
    model = tracks.Model.from_json(doc)
    out = []
    for r in rows:
        wc, wb, wf = model.weights[r["left"]]
        x = tracks.features(r["p"])
        c = r["p"]["cp"] + sum(w * v for w, v in zip(wc, x, strict=True))
        b = r["p"]["bp"] + sum(w * v for w, v in zip(wb, x, strict=True))
        f = max(sum(w * v for w, v in zip(wf, x, strict=True)), 0.0)
        sc, sb, rho = model.spread[r["left"]]
        out.append(min(tracks.expected_min(c, b, sc, sb, rho) + f, (c + b + f) / 2.0))
    return np.array(out)


def paced(rows: list[dict[str, Any]]) -> np.ndarray:
    """The paced estimate (`value.estimate`) of each position, from the seat's recorded part."""
    out = []
    for r in rows:
        part: OwnPart = {
            "phase": "turns",
            "round": r["round"],
            "outcome": None,
            "players_state": {0: holdings(r["p"])},
        }
        out.append(estimate(part, 0, STRONG_PACE))
    return np.array(out)


def per_left_line(
    train: list[dict[str, Any]], p_train: np.ndarray, test: list[dict[str, Any]], p_test: np.ndarray
) -> np.ndarray:
    """`p_test` mapped by the straight line per turns left that best fits `p_train` to the score."""
    out = np.empty(len(test))
    lt = np.array([r["left"] for r in train])
    ls = np.array([r["left"] for r in test])
    y = np.array([r["score"] for r in train], float)
    for n in set(ls.tolist()):
        m = lt == n
        a, b = np.polyfit(p_train[m], y[m], 1)
        out[ls == n] = a * p_test[ls == n] + b
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--ridge", type=float, default=30.0)
    parser.add_argument("--out", type=Path, default=Path("app/bots/data/tracks.json"))
    args = parser.parse_args()
    rows = load(args.data)
    games = sorted({r["seed"] for r in rows})
    random.Random(1).shuffle(games)
    held = set(games[: len(games) // 5])
    train = [r for r in rows if r["seed"] not in held]
    test = [r for r in rows if r["seed"] in held]
    score = np.array([r["score"] for r in test], float)

    def rmse(p: np.ndarray) -> float:
        return float(np.sqrt(np.mean((p - score) ** 2)))

    doc = fit(train, args.ridge)
    learned = predict(doc, test)
    lined = per_left_line(train, predict(doc, train), test, learned)
    old = per_left_line(train, paced(train), test, paced(test))
    print(f"{len(games)} games, {len(rows)} positions of the strong seat; {len(held)} held out")
    bias = float(np.mean(learned - score))
    print(
        f"held out, final score: model {rmse(learned):.2f} (bias {bias:+.2f}),"
        f" model by a line per turns left {rmse(lined):.2f},"
        f" paced estimate by a line per turns left {rmse(old):.2f}"
    )
    doc = fit(rows, args.ridge)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"written {args.out} (fitted on all {len(games)} games)")


if __name__ == "__main__":
    main()
