"""Train the value function by self-play through the PettingZoo environment.

    .venv/bin/python bench/train_value.py [--iterations 3] [--games 40] [--eval 20]
                                           [--out app/research/data/value.json]
                                           [--figures bench/value_training.md]

Iteration 0 plays at random; every later iteration plays the agent of the model fitted so far
(``app.research.learned.ValueAgent``, 10 % random moves) at every seat of two-player games.
Every decision's observation is a sample, labelled with that seat's final score; a ridge
regression (numpy) on all samples so far gives the next model. Per iteration the script records
the games' mean final score and the fit's R² on a held-out fifth of the games; at the end the
model plays ``--eval`` heads-up games against the random and the greedy bot (seats alternating,
fresh seeds), and the figures go to ``--figures``. Seeds: self-play game ``g`` of iteration
``i`` is seed ``900_000 + 1000 * i + g``; evaluation game ``g`` is ``990_000 + g``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from app import rules
from app.bots import choose_move
from app.research import actions, observe
from app.research.learned import LinearValue, ValueAgent
from app.research.pettingzoo_env import env

RIDGE = 1000.0  # strong: the samples of one game are far from independent


def self_play(model: LinearValue | None, games: int, it: int) -> tuple[list, list, list, float]:
    xs: list[np.ndarray] = []
    ys: list[float] = []
    groups: list[int] = []
    finals: list[float] = []
    e = env(players=2)
    for g in range(games):
        seed = 900_000 + 1000 * it + g
        e.reset(seed=seed)
        agent = None if model is None else ValueAgent(model, explore=0.1, seed=seed)
        rng = random.Random(seed)
        seen: dict[str, list[np.ndarray]] = {a: [] for a in e.possible_agents}
        paid = dict.fromkeys(e.possible_agents, 0.0)
        for name in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            paid[name] += reward
            if term or trunc:
                e.step(None)
                continue
            seen[name].append(obs["observation"])
            legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
            action = rng.choice(legal) if agent is None else agent.act(e.view(name), legal)
            e.step(action)
        for name, rows in seen.items():
            xs.extend(rows)
            ys.extend([paid[name]] * len(rows))
            groups.extend([g] * len(rows))
            finals.append(paid[name])
    return xs, ys, groups, float(np.mean(finals))


def fit(x: np.ndarray, y: np.ndarray) -> LinearValue:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    bias = float(y.mean())
    a = z.T @ z + RIDGE * np.eye(z.shape[1])
    w = np.linalg.solve(a, z.T @ (y - bias))
    return LinearValue(tuple(mean.tolist()), tuple(scale.tolist()), tuple(w.tolist()), bias)


def r2(model: LinearValue, x: np.ndarray, y: np.ndarray) -> float:
    z = (x - np.array(model.mean)) / np.array(model.scale)
    pred = z @ np.array(model.weight) + model.bias
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def evaluate(model: LinearValue, level: str, games: int) -> tuple[float, float, float]:
    """Heads-up against a bot level: the agent's share of first places, mean scores."""
    won = 0.0
    mine: list[int] = []
    theirs: list[int] = []
    for g in range(games):
        seed = 990_000 + g
        state = rules.new_game(seed, {"players": 2, "undo": False})
        me = g % 2
        agent = ValueAgent(model, seed=seed)
        n = 0
        while rules.outcome(state) is None:
            seat = rules.to_act(state)[0]
            view = rules.view_for(state, seat)
            if seat == me:
                move = actions.move_of(agent.act(view, actions.legal_actions(state, seat)))
            else:
                legal = [rules.encode_move(m) for m in rules.legal_moves(state, seat)]
                move = choose_move(dict(view), legal, level, seed * 1000 + n, None, 12)
            state = rules.apply_move(state, seat, move).state
            n += 1
        out = rules.outcome(state)
        assert out is not None
        p = {q["seat"]: q for q in out["players"]}
        won += 1.0 if p[me]["rank"] < p[1 - me]["rank"] else (0.5 if p[me]["rank"] == 1 else 0)
        mine.append(p[me]["score"])
        theirs.append(p[1 - me]["score"])
    return won / games, float(np.mean(mine)), float(np.mean(theirs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--eval", type=int, default=20)
    ap.add_argument("--out", default="app/research/data/value.json")
    ap.add_argument("--figures", default="bench/value_training.md")
    args = ap.parse_args()
    started = time.monotonic()
    model: LinearValue | None = None
    xs: list[np.ndarray] = []
    ys: list[float] = []
    groups: list[int] = []
    rows = []
    for it in range(args.iterations):
        x_new, y_new, g_new, final = self_play(model, args.games, it)
        xs += x_new
        ys += y_new
        groups += [1000 * it + g for g in g_new]
        x, y, grp = np.array(xs), np.array(ys), np.array(groups)
        held = grp % 5 == 4
        model = fit(x[~held], y[~held])
        score = r2(model, x[held], y[held])
        model = fit(x, y)
        rows.append((it, args.games, len(x_new), final, score))
        print(
            f"iteration {it}: {len(x_new)} samples, mean final score {final:.1f}, "
            f"held-out R² {score:.3f}",
            flush=True,
        )
    assert model is not None
    Path(args.out).write_text(json.dumps(model.to_json()) + "\n", encoding="utf-8")
    evals = [(level, *evaluate(model, level, args.eval)) for level in ("random", "greedy")]
    for level, won, mine, theirs in evals:
        print(
            f"against {level}: first in {100 * won:.0f}% of {args.eval}, "
            f"mean score {mine:.1f} to {theirs:.1f}",
            flush=True,
        )
    lines = [
        "# Value function training (bench/train_value.py)",
        "",
        f"`bench/train_value.py --iterations {args.iterations} --games {args.games} "
        f"--eval {args.eval}` — {time.monotonic() - started:.0f} s; the model: "
        f"{args.out} ({observe.size()} weights).",
        "",
        "| iteration | self-play games | samples | mean final score | held-out R² |",
        "|---|---|---|---|---|",
        *(f"| {i} | {g} | {n} | {f:.1f} | {s:.3f} |" for i, g, n, f, s in rows),
        "",
        "| heads-up against | games | agent first | agent mean score | bot mean score |",
        "|---|---|---|---|---|",
        *(f"| {lv} | {args.eval} | {100 * w:.0f} % | {m:.1f} | {t:.1f} |" for lv, w, m, t in evals),
        "",
    ]
    Path(args.figures).write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
