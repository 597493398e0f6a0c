"""How long a record of a real game can be, derived from the printed numbers and the engine's
move vocabulary (never a number picked by hand): a record longer than this is not a game.
"""

from __future__ import annotations

from functools import cache

from app.rules import data
from app.rules.moves import KINDS

# The move kinds a record may hold: every kind of the engine but ``undo`` (a record holds the
# moves that stand; what an undo took back is not part of the game).
RECORD_KINDS: frozenset[str] = frozenset(KINDS) - {"undo"}
# Set-up decisions of each seat before round 1 (``choose_resource``, ``place_councilor``).
SETUP_DECISIONS_PER_SEAT = 2
# Decisions each seat may face between turns in one round (an end-of-round event option,
# a favor token kept when a visit reveals one on another seat's turn).
DECISIONS_PER_SEAT_PER_ROUND = 2


@cache
def max_record_moves(players: int) -> int:
    """The most moves a record of a ``players``-seat game may hold.

    Each of the ``rounds`` rounds (components.json ``effects.rounds``) every seat plays every
    card of its hand (``effects.hand_size``): ``rounds × hand_size × players`` turns. A turn is
    one ``play_card`` and then moves of the engine's other kinds; the bound grants every turn
    one move of every kind a record may hold (``len(RECORD_KINDS)``, 24: actions, visits,
    advisor uses, decisions, ``end_turn``). That is the margin: real turns average about 5
    moves, and the engine's random players, the longest players, never made more than 11 in
    a turn. Set-up and between-turn decisions are added per seat. For four players: 6 × 3 × 4
    turns × 24 + 4 × 14 = 1,784 moves, against about 375 for the longest four-player games;
    each seat fewer takes a quarter off.
    """
    if not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        raise ValueError(f"a game has {data.MIN_PLAYERS} to {data.MAX_PLAYERS} seats")
    turns = data.ROUNDS * data.HAND_SIZE * players
    between = players * (SETUP_DECISIONS_PER_SEAT + data.ROUNDS * DECISIONS_PER_SEAT_PER_ROUND)
    return turns * len(RECORD_KINDS) + between


# The longest record of any game (four seats): the schema's cap on ``moves``.
MAX_RECORD_MOVES = max_record_moves(data.MAX_PLAYERS)
