"""The strong bot's preferred move for a position, with a short reason that can be put in words.

`advise(view, legal, playouts, rng_seed)` rates the seat's legal moves the way the `strong` bot
does, with a playout count and no clock (the same inputs give the same advice), and says why:

- `only_move`: the seat had one legal move;
- `one_step`: no playout was run (a budget of 0) or needed; the best immediate result decided;
- `playouts`: the moves were played out (`playouts` in all) and the best mean estimated final
  score decided; `value` is that mean and `margin` its lead over the next best move.

`move` is one of `legal`, unchanged (the wire move); `next_best` the runner-up, if any.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from app import rules
from app.bots.policy import Limit, rank_moves

Reason = Literal["only_move", "one_step", "playouts"]


class Advice(TypedDict):
    move: rules.EncodedMove
    reason: Reason
    value: float  # the estimated final score of the seat after the move
    next_best: rules.EncodedMove | None
    margin: float  # value minus the next best move's value (0 without one)
    playouts: int  # playouts run in all


def advise(
    view: rules.View, legal: list[rules.EncodedMove], playouts: int, rng_seed: int
) -> Advice:
    """The strong bot's choice among `legal` for the seat whose own view is `view`."""
    limit = Limit.of(None, playouts)
    rated = rank_moves(view, legal, "strong", rng_seed, limit)
    best = rated[0]
    runner = rated[1] if len(rated) > 1 else None
    reason: Reason = "only_move" if len(rated) == 1 else "playouts" if best.playouts else "one_step"
    return Advice(
        move=best.move,
        reason=reason,
        value=round(best.value, 2),
        next_best=None if runner is None else runner.move,
        margin=0.0 if runner is None else round(best.value - runner.value, 2),
        playouts=limit.used,
    )
