"""OpenSpiel's own search bots on the game, held to a CPU budget per move.

OpenSpiel's Python MCTS and IS-MCTS bots count simulations, not time. ``Budgeted`` gives each
move as many simulations as the budget buys: it keeps a running mean of the CPU one simulation
has cost (measured on the bot's own earlier moves, per game phase) and asks for
``budget / mean`` simulations, at least two; a move with one legal action is played at once.
The CPU each move really took is recorded, so a run can show the budgets were equal.

- ``mcts``: ``open_spiel.python.algorithms.mcts.MCTSBot`` on the game as it is (it searches the
  true state: it sees every hand and deck, an advantage no player has);
- ``ismcts``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot``, which samples the hidden parts
  it cannot see afresh for every simulation (``EmaraState.resample_from_infostate``).

Both evaluate a leaf with OpenSpiel's ``RandomRolloutEvaluator`` (random play to the end).

``Fixed`` is the same bot with one fixed simulation count for every move (the yardstick
calibrates that count once, at the start of a run, so its mean CPU a move equals ours).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

KINDS = ("mcts", "ismcts")
UCT_C = 2.0


def search_bot(game: Any, kind: str, simulations: int, rng: np.random.RandomState) -> Any:
    """OpenSpiel's ``kind`` bot with ``simulations`` simulations a move (at least 2)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    sims = max(2, simulations)  # MCTSBot expands its root only on its second simulation
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if kind == "mcts":
        return mcts.MCTSBot(game, UCT_C, sims, evaluator, random_state=rng, solve=False)
    return ismcts.ISMCTSBot(game, evaluator, UCT_C, sims, random_state=rng)


class Fixed:
    """OpenSpiel's bot with a fixed simulation count; the CPU of each searched move recorded
    (this thread's CPU time)."""

    def __init__(self, game: Any, kind: str, simulations: int, seed: int) -> None:
        self.bot = search_bot(game, kind, simulations, np.random.RandomState(seed))
        self.cpu: list[float] = []

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        start = time.thread_time()
        action = int(self.bot.step(state))
        self.cpu.append(time.thread_time() - start)
        return action


class Budgeted:
    def __init__(self, game: Any, kind: str, budget: float, seed: int) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        self.game = game
        self.kind = kind
        self.budget = budget
        self.rng = np.random.RandomState(seed)
        self.per_sim: dict[str, float] = {}
        self.cpu: list[float] = []  # CPU seconds of every move searched

    def _bot(self, simulations: int) -> Any:
        evaluator = mcts.RandomRolloutEvaluator(1, self.rng)
        if self.kind == "mcts":
            return mcts.MCTSBot(
                self.game, UCT_C, simulations, evaluator, random_state=self.rng, solve=False
            )
        return ismcts.ISMCTSBot(self.game, evaluator, UCT_C, simulations, random_state=self.rng)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        phase = str(state).split(";")[0]
        guess = self.per_sim.get(phase) or (
            sum(self.per_sim.values()) / len(self.per_sim) if self.per_sim else None
        )
        # at least 2: MCTSBot expands its root only on its second simulation
        simulations = 4 if guess is None else max(2, int(self.budget / guess))
        start = time.process_time()
        action = int(self._bot(simulations).step(state))
        spent = time.process_time() - start
        self.cpu.append(spent)
        seen = spent / simulations
        old = self.per_sim.get(phase)
        self.per_sim[phase] = seen if old is None else 0.7 * old + 0.3 * seen
        return action
