"""One step ahead: what a seat's position is worth once a move is played.

A sampled state is valued from the seat's own holdings (`value.estimate` reads `own_part`), or
at the exact final score once the seat has no turn left (`final_value`). The greedy level and
every playout choose with these.
"""

from __future__ import annotations

import random
from typing import Any, cast

from app import rules
from app.bots import tracks
from app.bots.value import TURNS_PER_ROUND, Holdings, OwnPart, estimate
from app.rules import data
from app.rules.events import legal_event_options
from app.rules.moves import VISIT_KINDS
from app.rules.scoring import final_tracks

# Once the seat's last turn is over, its value is its exact final score; these break ties the way
# the ranking does (the higher track first) and, solo, prefer a win over a loss by a point more.
TRACK_TIEBREAK = 0.01
SOLO_WIN_BONUS = 3.0

# What a visit offers besides closing it: the engine's own list.
VISIT_ACTIONS = VISIT_KINDS - {"end_visit"}

# At tables of this many seats the strong bot's value (a pace given) is the model fitted on its
# own four-seat games (`tracks.predicted`); with fewer seats it is the paced estimate.
MODEL_AT = 4


def wire_moves(state: rules.GameState, seat: int) -> list[rules.EncodedMove]:
    """The seat's legal moves in wire form (`encode_move` gives the `EncodedMove` shape)."""
    return [cast(rules.EncodedMove, rules.encode_move(m)) for m in rules.legal_moves(state, seat)]


def after(state: rules.GameState, seat: int, move: rules.EncodedMove) -> rules.GameState | None:
    """The state once `move` is played, None when the (sampled) state refuses it."""
    try:
        return rules.apply_move(state, seat, move).state
    except Exception:  # a sampled state may refuse a move the real one allows; skip it
        return None


def position_value(state: rules.GameState, seat: int, pace: float | None = None) -> float:
    """The seat's estimated final score in `state`, from its own holdings.

    With a pace (the strong bot), at a table of `MODEL_AT` seats or more, while the seat has a
    turn left: the fitted model's prediction (`tracks.predicted`).
    """
    if pace is not None:
        st = state.tree
        if st["players"] >= MODEL_AT and st["phase"] != "finished" and tracks.turns_left(st, seat):
            return tracks.predicted(state, seat)
    return estimate(own_part(state, seat), seat, pace)


def final_value(state: rules.GameState, seat: int) -> float | None:
    """The seat's exact final score once it has no turn left in the game, else None.

    A choice of the last round's end-of-round event still to come counts at its best option.
    Read from the seat's own holdings and the public event only.
    """
    st = state.tree
    if st["phase"] == "finished":
        out = rules.outcome(state)
        assert out is not None
        me = next(p for p in out["players"] if p["seat"] == seat)
        value = float(me["score"]) + TRACK_TIEBREAK * max(me["cp"], me["bp"])
        if out.get("won"):
            value += SOLO_WIN_BONUS
        return value
    if st["round"] < data.ROUNDS or st["phase"] not in ("turns", "end_of_round"):
        return None
    p = st["ps"][seat]
    if st["phase"] == "turns" and (p["turns_taken"] < TURNS_PER_ROUND):
        return None
    best = _final_of(p)
    decision = st["decision"] or {}
    pending = st["phase"] == "turns" or (
        decision.get("kind") == "event_option"
        and (decision.get("seat") == seat or seat in decision.get("queue", []))
    )
    if pending and st["event"] is not None:
        opts = data.EVENT_EFFECT[st["event"]].get("options", {})
        for move in legal_event_options(st, seat):
            opt = opts[move["option"]]
            res, goods = dict(p["res"]), dict(p["goods"])
            for k, n in (move.get("pay") or {}).items():
                res[k] = res.get(k, 0) - n
            for k, n in (opt.get("spend") or {}).items():
                goods[k] = goods.get(k, 0) - n
            q = {
                **p,
                "res": res,
                "goods": goods,
                "cp": p["cp"] + int(opt.get("cp") or 0),
                "bp": p["bp"] + int(opt.get("bp") or 0),
            }
            best = max(best, _final_of(q))
    return best


def _final_of(p: Any) -> float:
    """The final value of one player's part of the engine's state (`final_tracks` reads it)."""
    t = final_tracks(p)
    return min(t["cp"], t["bp"]) + TRACK_TIEBREAK * max(t["cp"], t["bp"])


def own_part(state: rules.GameState, seat: int) -> OwnPart:
    """The part of `view_for(state, seat)` that `estimate` reads, built straight from a state the
    bot sampled itself (a view is built in full only for the real game)."""
    st = state.tree
    if st["phase"] == "finished":
        return {"phase": "finished", "round": st["round"], "outcome": rules.outcome(state)}
    return {
        "phase": st["phase"],
        "round": st["round"],
        "outcome": None,
        "players_state": {seat: holdings(st["ps"][seat])},
    }


def holdings(p: Any) -> Holdings:
    """What `estimate` reads of one player's part of the engine's state."""
    return {
        "cp": p["cp"],
        "bp": p["bp"],
        "resources": p["res"],
        "goods": p["goods"],
        "craftsmen": p["craftsmen"],
        "advisors": p["advisors"],
        "favor_tokens": [{"reward": data.FAVOR_TOKENS[t]["reward"]} for t in p["favor"]],
        "turns_taken": p["turns_taken"],
    }


def _opens_visit(move: rules.EncodedMove) -> bool:
    kind = move.get("kind")
    return kind == "move" or (kind == "card_action" and ("councilor" in move or "location" in move))


def scored(
    state: rules.GameState,
    seat: int,
    legal: list[rules.EncodedMove],
    pace: float | None = None,
    cards: bool = False,
) -> list[tuple[float, int]]:
    """Each move's value once played; a move that opens a visit counts the best visit action.

    `cards`: a card played counts what its action and its slot's movement then bring
    (`card_values`); without it every card and slot is worth the same one step ahead.
    """
    out = []
    played: dict[int, rules.GameState] = {}
    for i, move in enumerate(legal):
        nxt = after(state, seat, move)
        if nxt is None:
            out.append((float("-inf"), i))
            continue
        if cards and move.get("kind") == "play_card":
            played[i] = nxt
            continue
        out.append((visited_value(nxt, seat, move, pace), i))
    if played:
        out.extend(card_values(state, seat, legal, played, pace))
        out.sort(key=lambda t: t[1])
    return out


def visited_value(
    nxt: rules.GameState, seat: int, move: rules.EncodedMove, pace: float | None
) -> float:
    """The seat's value in `nxt`, reached by `move`: with the best visit action if it opens one."""
    value = position_value(nxt, seat, pace)
    if _opens_visit(move):
        st = nxt.tree
        visit = (st["turn"] or {}).get("visit")
        if visit is not None and st["decision"] is None:
            for follow in rules.legal_moves(nxt, seat):
                if follow.kind not in VISIT_ACTIONS:
                    continue
                then = after(nxt, seat, cast(rules.EncodedMove, rules.encode_move(follow)))
                if then is not None:
                    value = max(value, position_value(then, seat, pace))
    return value


def card_values(
    state: rules.GameState,
    seat: int,
    legal: list[rules.EncodedMove],
    played: dict[int, rules.GameState],
    pace: float | None = None,
) -> list[tuple[float, int]]:
    """Each card played (`played`: index in `legal` -> the state after it) valued by what it then
    brings: the value now, plus the best gain of the card's action (none if it gains nothing:
    the action may be skipped) plus the best gain of moving a councilor the slot's steps (the
    movement is not optional). The card's action depends on the card only and the movement on
    the slot only, so each is worked out once, on the first state where that card or slot is
    played."""
    now = position_value(state, seat, pace)
    by_card: dict[str, float] = {}
    by_slot: dict[int, float] = {}
    for i, nxt in played.items():
        card, slot = str(legal[i]["card"]), int(legal[i]["slot"])
        if card in by_card and slot in by_slot:
            continue
        act = move = float("-inf")
        for follow in wire_moves(nxt, seat):
            kind = follow.get("kind")
            if not (
                (kind == "card_action" and card not in by_card)
                or (kind == "move" and slot not in by_slot)
            ):
                continue
            then = after(nxt, seat, follow)
            if then is None:
                continue
            gain = visited_value(then, seat, follow, pace) - now
            if kind == "card_action":
                act = max(act, gain)
            else:
                move = max(move, gain)
        if card not in by_card:
            by_card[card] = max(0.0, act)
        if slot not in by_slot:
            by_slot[slot] = move if move > float("-inf") else 0.0
    return [
        (now + by_card[str(legal[i]["card"])] + by_slot[int(legal[i]["slot"])], i) for i in played
    ]


def best_of(scores: list[tuple[float, int]], rng: random.Random) -> int:
    """The index of the best score; equal best scores are drawn among."""
    top = max(s for s, _ in scores)
    ties = [i for s, i in scores if s >= top - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def is_exchange(move: rules.EncodedMove) -> bool:
    """The Chamberlain's ring <-> gold exchange (repeatable within a turn)."""
    return move.get("kind") == "use_advisor" and move.get("advisor") == "chamberlain"


def raises(state: rules.GameState, seat: int, move: rules.EncodedMove, now: float) -> bool:
    """Playing `move` strictly raises the seat's value above `now`."""
    nxt = after(state, seat, move)
    return nxt is not None and position_value(nxt, seat) > now + 1e-6


def greedy_move(
    state: rules.GameState, seat: int, legal: list[rules.EncodedMove], rng: random.Random
) -> rules.EncodedMove:
    """The greedy choice on a state the caller sampled itself (playouts): the best one-step
    move, never a ring <-> gold exchange that does not strictly raise the value."""
    if len(legal) > 1:
        now = position_value(state, seat)
        plain = [m for m in legal if not is_exchange(m) or raises(state, seat, m, now)]
        legal = plain or legal
    return legal[best_of(scored(state, seat, legal), rng)]
