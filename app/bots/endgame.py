"""The last turn: every line of the seat's last turn of the game tried, valued exactly.

What a seat holds after its last turn is (nearly) final, so each line of that turn is valued at
the final score it leads to (`onestep.final_value`) rather than by playouts.
"""

from __future__ import annotations

from typing import Any

from app import rules
from app.bots.lookahead import STRONG_PACE, Limit, Rated
from app.bots.onestep import after, final_value, is_exchange, position_value, wire_moves
from app.bots.value import TURNS_PER_ROUND
from app.rules import data

ENDGAME_NODES = 3000  # moves the last-turn search may try before it gives up
ENDGAME_DEPTH = 16  # moves of one line of the last turn, at most


class _OutOfNodes(Exception):
    pass


def turn_key(state: rules.GameState) -> tuple[Any, ...]:
    """Which turn of the game `state` is in."""
    st = state.tree
    turn = st["turn"] or {}
    return (st["phase"], st["round"], turn.get("seat"), turn.get("number"))


def last_turn(state: rules.GameState, seat: int) -> bool:
    """The seat is in its last turn of the game: what it holds after it is (nearly) final."""
    st = state.tree
    turn = st["turn"] or {}
    return (
        st["phase"] == "turns"
        and st["round"] >= data.ROUNDS
        and turn.get("seat") == seat
        and st["ps"][seat]["turns_taken"] == TURNS_PER_ROUND - 1
    )


def endgame(
    state: rules.GameState, seat: int, legal: list[rules.EncodedMove], limit: Limit
) -> list[Rated] | None:
    """Every line of the seat's last turn tried on the sampled state, each valued at the exact
    final score it leads to (`final_value`); None when the turn has too many lines to try within
    `ENDGAME_NODES` moves or the clock runs out (the playouts decide then)."""
    key = turn_key(state)
    nodes = 0

    def leaf(sim: rules.GameState) -> float:
        exact = final_value(sim, seat)
        return position_value(sim, seat, STRONG_PACE) if exact is None else exact

    def best(sim: rules.GameState, depth: int, exchanged: bool) -> float:
        nonlocal nodes
        if turn_key(sim) != key or seat not in rules.to_act(sim) or depth >= ENDGAME_DEPTH:
            return leaf(sim)
        top = float("-inf")
        for move in wire_moves(sim, seat):
            exchange = is_exchange(move)
            if exchange and exchanged:
                continue  # one ring <-> gold exchange a line: never back and forth
            nodes += 1
            if nodes > ENDGAME_NODES or (nodes % 64 == 0 and limit.spent()):
                raise _OutOfNodes
            nxt = after(sim, seat, move)
            if nxt is not None:
                top = max(top, best(nxt, depth + 1, exchanged or exchange))
        return leaf(sim) if top == float("-inf") else top

    rated: list[tuple[float, int]] = []
    try:
        for i, move in enumerate(legal):
            nxt = after(state, seat, move)
            if nxt is None:
                continue
            nodes += 1
            rated.append((best(nxt, 1, is_exchange(move)), i))
    except _OutOfNodes:
        return None
    if not rated:
        return None
    # Equal lines: a move that is not an exchange first, so no exchange is ever undone.
    rated.sort(key=lambda t: (-t[0], is_exchange(legal[t[1]]), t[1]))
    return [Rated(legal[i], v, 0) for v, i in rated]
