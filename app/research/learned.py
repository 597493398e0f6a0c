"""A learned value function and the agent that plays by it.

``LinearValue``: a seat's expected final score read from its own observation
(``observe.encode``), as ``bias + sum(weight[i] * (x[i] - mean[i]) / scale[i])``. It is shipped
as a file of numbers (``app/research/data/value.json``: the observation's names, then mean,
scale and weight per index, and the bias), trained by ``bench/train_value.py`` through the
PettingZoo environment, and evaluated in pure Python — no numpy, no GPU needed to play.

``ValueAgent``: from the seat's own view, one sampled state (``app.bots.sample.determinize``:
the hidden parts drawn afresh), every legal action tried on it, the one whose resulting
observation the model values highest taken. It sees what the seat sees and nothing else.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, cast

from app import rules
from app.bots.policy import position_seed
from app.bots.sample import determinize
from app.research import actions, observe

CHAMBERLAIN = frozenset(
    actions.action_of({"kind": "use_advisor", "advisor": "chamberlain", "give": give})
    for give in ("ring", "gold")
)


@dataclass(frozen=True)
class LinearValue:
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weight: tuple[float, ...]
    bias: float

    def __call__(self, x: Sequence[float]) -> float:
        total = self.bias
        for xi, m, s, w in zip(x, self.mean, self.scale, self.weight, strict=True):
            if w:
                total += w * (xi - m) / s
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "names": list(observe.names()),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "weight": list(self.weight),
            "bias": self.bias,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LinearValue:
        if list(data["names"]) != list(observe.names()):
            raise ValueError("the model was trained on another observation layout")
        return cls(
            tuple(float(v) for v in data["mean"]),
            tuple(float(v) for v in data["scale"]),
            tuple(float(v) for v in data["weight"]),
            float(data["bias"]),
        )

    @classmethod
    def shipped(cls) -> LinearValue:
        """The model trained by bench/train_value.py and shipped with the package."""
        text = resources.files("app.research.data").joinpath("value.json").read_text("utf-8")
        return cls.from_json(json.loads(text))


class ValueAgent:
    def __init__(self, model: LinearValue, explore: float = 0.0, seed: int = 0) -> None:
        self.model = model
        self.explore = explore
        self.rng = random.Random(seed)

    def act(self, view: Mapping[str, Any], legal: Sequence[int]) -> int:
        """One of ``legal`` (actions) for the seat whose own view ``view`` is."""
        # The Chamberlain's ring <-> gold exchange can be made any number of times: never one
        # while anything else is legal, so a game always ends.
        legal = [a for a in legal if a not in CHAMBERLAIN] or list(legal)
        if len(legal) == 1:
            return legal[0]
        if self.explore and self.rng.random() < self.explore:
            return self.rng.choice(legal)
        seat = int(view["me"]["seat"])
        own = cast(rules.View, dict(view))  # the view the engine gave the seat
        state = determinize(own, random.Random(position_seed(own)))
        best, top = legal[0], float("-inf")
        for action in legal:
            try:
                after = rules.apply_move(state, seat, actions.move_of(action)).state
            except rules.IllegalMoveError:
                continue
            value = self.value(after, seat)
            if value > top:
                best, top = action, value
        return best

    def value(self, state: rules.GameState, seat: int) -> float:
        out = rules.outcome(state)
        if out is not None:
            return float(next(p["score"] for p in out["players"] if p["seat"] == seat))
        return self.model(observe.encode(rules.view_for(state, seat)))
