"""OpenSpiel's own search bots on the game, with the CPU of every move they search recorded.

OpenSpiel's Python MCTS and IS-MCTS bots count simulations, not time. ``Fixed`` gives every
move one simulation count (at least two); the yardstick (``bench/yardstick.py``) calibrates that
count once, at the start of a run, so its mean CPU a move equals our bot's. A move with one
legal action is played at once. The CPU each searched move really took is recorded, so a run
can show the budgets were equal.

- ``mcts``: ``open_spiel.python.algorithms.mcts.MCTSBot`` on the game as it is (it searches the
  true state: it sees every hand and deck, an advantage no player has);
- ``ismcts``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot``, which samples the hidden parts
  it cannot see afresh for every simulation (``EmaraState.resample_from_infostate``, drawn from
  the bot's own seeded generator: the same seed, the same search).

Both evaluate a leaf with OpenSpiel's ``RandomRolloutEvaluator`` (random play to the end).
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
    bot = ismcts.ISMCTSBot(game, evaluator, UCT_C, sims, random_state=rng)
    # OpenSpiel draws each resample from a sampler seeded by the machine; drawn from `rng`
    # instead, the same seed searches the same way.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    return bot


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
