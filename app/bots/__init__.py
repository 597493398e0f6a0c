"""Bots: server-side seats that choose moves from what their own seat may see.

`choose_move(view, legal, level, rng_seed, budget, playouts, clock)` is the whole interface
(analysis adds `advice.advise` and `estimate.estimate`, on the same input; `clock` only says which
clock the budget is read from). Its input is the seat's
own view (`app.rules.view_for(state, seat)`) and that seat's legal moves in wire form; it never
receives the game state. A bot that looks ahead builds a full game state of its own by sampling the
hidden parts consistently with the view (`app.bots.sample`).

Levels:
- `random` — any legal move;
- `greedy` — the move whose immediate result scores best (one step, one sampled state);
- `strong` — each candidate move is played out (solo to the end of the round, else to the end of
  the turn), on several sampled states, within a time and/or playout budget; the best mean wins.
"""

from __future__ import annotations

from app.bots.policy import LEVELS, BotError, choose_move

__all__ = ["LEVELS", "BotError", "choose_move"]
