"""Move choice for the three bot levels."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app import rules
from app.bots.sample import determinize
from app.bots.value import TURNS_PER_ROUND, estimate
from app.rules import data
from app.rules.events import legal_event_options
from app.rules.moves import VISIT_KINDS
from app.rules.scoring import final_tracks

LEVELS = ("random", "greedy", "strong")

DEFAULT_BUDGET = 0.12  # seconds of thinking per move for `strong`, at most
TURN_BUDGET = 0.35  # seconds of thinking for a whole turn (see TurnTimer)
MAX_CANDIDATES = 10  # `strong` plays out at most this many of the best one-step candidates
MAX_ROUND_STEPS = 40  # solo: moves a playout to the end of the round plays at most
# At a table a playout ends with the seat's next turn (this many turns counted from the one it
# is in), after at most this many moves of every seat.
ROLLOUT_TURNS = 2
MAX_TABLE_STEPS = 80
MAX_SAMPLES = 24
# `strong` values positions with what holdings can still become limited to this many points a
# remaining turn (`value.estimate`'s `pace`): late in the game that keeps its two tracks level.
STRONG_PACE: float | None = 8.0


class BotError(ValueError):
    """A bot was asked to move with bad input (no legal move, unknown level, foreign view)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def choose_move(
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    level: str,
    rng_seed: int,
    budget: float | None = DEFAULT_BUDGET,
    playouts: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """Pick one of `legal` for the seat whose own view is `view`.

    `view` must be a seat's view (`view["me"]` set); `legal` that seat's legal moves in wire form.
    The returned dict is one of `legal`, unchanged.

    `strong` thinks until either limit runs out: `budget` seconds (None: no clock at all) or
    `playouts` playouts (None: no count). With `budget=None` and a playout count the choice
    depends on nothing but the inputs (benches, tests, analysis). `clock` reads the seconds the
    budget counts: the monotonic clock live; a bench may pass a CPU clock (`time.thread_time`),
    so a loaded machine spends what an idle one would.
    """
    limit = Limit.of(budget, playouts, clock)
    return rank_moves(view, legal, level, rng_seed, limit)[0].move


@dataclass(frozen=True)
class Rated:
    """One candidate move with its mean playout value and the playouts behind it (0: one step)."""

    move: dict[str, Any]
    value: float
    playouts: int


@dataclass
class Limit:
    """How long `strong` may think: a monotonic deadline and/or a number of playouts."""

    deadline: float | None = None
    playouts: int | None = None
    used: int = field(default=0)
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def of(
        cls,
        budget: float | None,
        playouts: int | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Limit:
        deadline = None if budget is None else clock() + max(budget, 0.0)
        return cls(deadline, None if playouts is None else max(playouts, 0), clock=clock)

    def spent(self) -> bool:
        if self.playouts is not None and self.used >= self.playouts:
            return True
        return self.deadline is not None and self.clock() > self.deadline


def rank_moves(
    view: dict[str, Any], legal: list[dict[str, Any]], level: str, rng_seed: int, limit: Limit
) -> list[Rated]:
    """`legal` rated the way `level` rates them, best first (the first is the bot's choice)."""
    if level not in LEVELS:
        raise BotError("bad_level", f"unknown bot level {level!r}; choose one of {list(LEVELS)}")
    # Bots never take moves back: `legal_moves` never lists `undo`; should a caller pass one
    # anyway, it is not a candidate.
    legal = [m for m in legal if m.get("kind") != "undo"]
    if not legal:
        raise BotError("no_legal_move", "the seat has no legal move")
    me = view.get("me")
    if not isinstance(me, dict) or "seat" not in me:
        raise BotError("not_a_seat_view", "a bot needs its own seat's view, not a public one")
    rng = random.Random(rng_seed)
    if len(legal) == 1 or level == "random":
        return [Rated(legal[0] if len(legal) == 1 else rng.choice(legal), 0.0, 0)]
    seat = int(me["seat"])
    state = determinize(view, rng)
    if level == "strong" and _last_turn(state, seat) and not limit.spent():
        # The last turn is searched line by line (a line exchanges ring <-> gold once at most).
        solved = _endgame(state, seat, legal, limit)
        if solved is not None:
            return solved
    legal = _no_cycles(view, seat, state, legal)
    if level == "greedy":
        scored = _scored(state, seat, legal)
        best = _best(scored, rng)
        rest = sorted((t for t in scored if t[1] != best), key=lambda t: -t[0])
        top = next(s for s, i in scored if i == best)
        return [Rated(legal[best], top, 0), *(Rated(legal[i], s, 0) for s, i in rest)]
    return _strong(view, state, seat, legal, rng, limit)


def position_seed(view: dict[str, Any]) -> int:
    """A seed drawn from the position the seat sees (its own view): the same position always
    gives the same seed, so a bot's choice depends on nothing but what it is shown."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def _no_cycles(
    view: dict[str, Any], seat: int, state: Any, legal: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Drop repeatable exchanges (the Chamberlain's ring <-> gold) that do not strictly raise the
    seat's value right away: the value depends on public holdings only, so a bot can never swap
    back and forth forever."""
    now = estimate(view, seat)
    out = []
    for move in legal:
        if move.get("kind") == "use_advisor" and move.get("advisor") == "chamberlain":
            nxt = _after(state, seat, move)
            if nxt is None or _value(nxt, seat) <= now + 1e-6:
                continue
        out.append(move)
    return out or legal


# -- one step -----------------------------------------------------------------------------


def _after(state: Any, seat: int, move: dict[str, Any]) -> Any | None:
    try:
        return rules.apply_move(state, seat, move).state
    except Exception:  # a sampled state may refuse a move the real one allows; skip it
        return None


def _value(state: Any, seat: int, pace: float | None = None) -> float:
    return estimate(own_part(state, seat), seat, pace)


# Once the seat's last turn is over, its value is its exact final score; these break ties the way
# the ranking does (the higher track first) and, solo, prefer a win over a loss by a point more.
TRACK_TIEBREAK = 0.01
SOLO_WIN_BONUS = 3.0


def final_value(state: Any, seat: int) -> float | None:
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


def _final_of(p: dict[str, Any]) -> float:
    t = final_tracks(p)
    return min(t["cp"], t["bp"]) + TRACK_TIEBREAK * max(t["cp"], t["bp"])


def own_part(state: Any, seat: int) -> dict[str, Any]:
    """The part of `view_for(state, seat)` that `estimate` reads, built straight from a state the
    bot sampled itself (a view is built in full only for the real game)."""
    st = state.tree
    if st["phase"] == "finished":
        return {"phase": "finished", "round": st["round"], "outcome": rules.outcome(state)}
    p = st["ps"][seat]
    mine = {
        "cp": p["cp"],
        "bp": p["bp"],
        "resources": p["res"],
        "goods": p["goods"],
        "craftsmen": p["craftsmen"],
        "advisors": p["advisors"],
        "favor_tokens": [{"reward": data.FAVOR_TOKENS[t]["reward"]} for t in p["favor"]],
        "turns_taken": p["turns_taken"],
    }
    return {
        "phase": st["phase"],
        "round": st["round"],
        "outcome": None,
        "players_state": {seat: mine},
    }


def _opens_visit(move: dict[str, Any]) -> bool:
    kind = move.get("kind")
    return kind == "move" or (kind == "card_action" and ("councilor" in move or "location" in move))


def _scored(
    state: Any, seat: int, legal: list[dict[str, Any]], pace: float | None = None
) -> list[tuple[float, int]]:
    """Each move's value once played; a move that opens a visit counts the best visit action."""
    out = []
    for i, move in enumerate(legal):
        nxt = _after(state, seat, move)
        if nxt is None:
            out.append((float("-inf"), i))
            continue
        value = _value(nxt, seat, pace)
        if _opens_visit(move):
            st = nxt.tree
            visit = (st["turn"] or {}).get("visit")
            if visit is not None and st["decision"] is None:
                for follow in rules.legal_moves(nxt, seat):
                    if follow.kind not in VISIT_ACTIONS:
                        continue
                    after = _after(nxt, seat, rules.encode_move(follow))
                    if after is not None:
                        value = max(value, _value(after, seat, pace))
        out.append((value, i))
    return out


# What a visit offers besides closing it: the engine's own list.
VISIT_ACTIONS = VISIT_KINDS - {"end_visit"}


def _best(scored: list[tuple[float, int]], rng: random.Random) -> int:
    top = max(s for s, _ in scored)
    ties = [i for s, i in scored if s >= top - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _greedy(
    state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    return legal[_best(_scored(state, seat, legal), rng)]


def _paced(
    state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """The strong bot's own moves inside a playout: greedy on the paced value."""
    return legal[_best(_scored(state, seat, legal, STRONG_PACE), rng)]


def _is_exchange(move: dict[str, Any]) -> bool:
    return move.get("kind") == "use_advisor" and move.get("advisor") == "chamberlain"


def _raises(state: Any, seat: int, move: dict[str, Any], now: float) -> bool:
    nxt = _after(state, seat, move)
    return nxt is not None and _value(nxt, seat) > now + 1e-6


def greedy_move(
    state: Any, seat: int, legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """The greedy choice on a state the caller sampled itself (playouts): the best one-step
    move, never a ring <-> gold exchange that does not strictly raise the value."""
    if len(legal) > 1:
        now = _value(state, seat)
        plain = [m for m in legal if not _is_exchange(m) or _raises(state, seat, m, now)]
        legal = plain or legal
    return _greedy(state, seat, legal, rng)


# -- lookahead ----------------------------------------------------------------------------


def _turn_key(state: Any, seat: int) -> tuple[Any, ...]:
    st = state.tree
    turn = st["turn"] or {}
    return (st["phase"], st["round"], turn.get("seat"), turn.get("number"))


def _rollout(
    state: Any,
    seat: int,
    move: dict[str, Any],
    rng: random.Random,
    policy: Callable[[Any, int, list[dict[str, Any]], random.Random], dict[str, Any]],
) -> float | None:
    """Play `move`, then play on with `policy` for the seat; value the result.

    Solo, the playout goes on to the end of the round (the seat's later turns of the round
    included): nobody else moves in between, and what a turn sets up often pays off in the next.
    At a table it goes on through the other seats' turns, each seat playing greedily on the
    sampled state, to the end of the seat's next turn (or of the round): what the others take
    from the rondels and the town before then, and what the seat can still do after them, count.
    """
    solo = int(state.tree["players"]) == 1
    rnd = state.tree["round"]
    done = state.tree["ps"][seat]["turns_taken"] + ROLLOUT_TURNS
    sim = _after(state, seat, move)
    if sim is None:
        return None
    for _ in range(MAX_ROUND_STEPS if solo else MAX_TABLE_STEPS):
        st = sim.tree
        acting = list(rules.to_act(sim))
        if not acting or (solo and seat not in acting):
            break
        if st["phase"] != "turns" or st["round"] != rnd:
            break
        if not solo and st["ps"][seat]["turns_taken"] >= done:
            break
        who = seat if solo else acting[0]
        legal = [rules.encode_move(m) if not isinstance(m, dict) else m for m in _legal(sim, who)]
        if not legal:
            break
        pick = policy(sim, seat, legal, rng) if who == seat else greedy_move(sim, who, legal, rng)
        nxt = _after(sim, who, pick)
        if nxt is None:
            break
        sim = nxt
    return _value(sim, seat, STRONG_PACE)


def _legal(state: Any, seat: int) -> list[Any]:
    return list(rules.legal_moves(state, seat))


def _strong(
    view: dict[str, Any],
    state: Any,
    seat: int,
    legal: list[dict[str, Any]],
    rng: random.Random,
    limit: Limit,
) -> list[Rated]:
    first = _scored(state, seat, legal, STRONG_PACE)
    first.sort(key=lambda t: -t[0])
    one_step = [Rated(legal[i], s, 0) for s, i in first]
    # Keep the best one-step candidates, and at least one of each kind so a quiet move that pays
    # off later in the turn (playing a card, moving a councilor) is still played out.
    keep: list[int] = []
    kinds: set[str] = set()
    for s, i in first:
        kind = str(legal[i].get("kind"))
        if s == float("-inf"):
            continue
        if len(keep) < MAX_CANDIDATES or kind not in kinds:
            keep.append(i)
            kinds.add(kind)
    if len(keep) <= 1 or limit.spent():  # nothing to compare or no time: the one-step choice
        return one_step
    totals = dict.fromkeys(keep, 0.0)
    counts = dict.fromkeys(keep, 0)
    sample_state = state
    for sample in range(MAX_SAMPLES):
        if sample:
            if limit.spent():
                break
            sample_state = determinize(view, rng)
        for i in keep:
            if limit.spent() and (sample or counts[keep[0]]):
                break  # out of budget: the candidates played out so far decide
            limit.used += 1
            v = _rollout(sample_state, seat, legal[i], rng, _paced)
            if v is None:
                continue
            totals[i] += v
            counts[i] += 1
    rated = [(totals[i] / counts[i], i) for i in keep if counts[i]]
    if not rated:
        return one_step
    # A candidate the budget left one sample short is compared on its mean all the same.
    best = _best(rated, rng)
    rated.sort(key=lambda t: -t[0])
    order = [best, *(i for _, i in rated if i != best)]
    return [Rated(legal[i], totals[i] / counts[i], counts[i]) for i in order]


# -- the last turn ------------------------------------------------------------------------

ENDGAME_NODES = 3000  # moves the last-turn search may try before it gives up
ENDGAME_DEPTH = 16  # moves of one line of the last turn, at most


class _OutOfNodes(Exception):
    pass


def _last_turn(state: Any, seat: int) -> bool:
    """The seat is in its last turn of the game: what it holds after it is (nearly) final."""
    st = state.tree
    turn = st["turn"] or {}
    return (
        st["phase"] == "turns"
        and st["round"] >= data.ROUNDS
        and turn.get("seat") == seat
        and st["ps"][seat]["turns_taken"] == TURNS_PER_ROUND - 1
    )


def _endgame(
    state: Any, seat: int, legal: list[dict[str, Any]], limit: Limit
) -> list[Rated] | None:
    """Every line of the seat's last turn tried on the sampled state, each valued at the exact
    final score it leads to (`final_value`); None when the turn has too many lines to try within
    `ENDGAME_NODES` moves or the clock runs out (the playouts decide then)."""
    key = _turn_key(state, seat)
    nodes = 0

    def leaf(sim: Any) -> float:
        exact = final_value(sim, seat)
        return _value(sim, seat, STRONG_PACE) if exact is None else exact

    def best(sim: Any, depth: int, exchanged: bool) -> float:
        nonlocal nodes
        if _turn_key(sim, seat) != key or seat not in rules.to_act(sim) or depth >= ENDGAME_DEPTH:
            return leaf(sim)
        top = float("-inf")
        for m in rules.legal_moves(sim, seat):
            move = rules.encode_move(m)
            exchange = _is_exchange(move)
            if exchange and exchanged:
                continue  # one ring <-> gold exchange a line: never back and forth
            nodes += 1
            if nodes > ENDGAME_NODES or (nodes % 64 == 0 and limit.spent()):
                raise _OutOfNodes
            nxt = _after(sim, seat, move)
            if nxt is not None:
                top = max(top, best(nxt, depth + 1, exchanged or exchange))
        return leaf(sim) if top == float("-inf") else top

    rated: list[tuple[float, int]] = []
    try:
        for i, move in enumerate(legal):
            nxt = _after(state, seat, move)
            if nxt is None:
                continue
            nodes += 1
            rated.append((best(nxt, 1, _is_exchange(move)), i))
    except _OutOfNodes:
        return None
    if not rated:
        return None
    # Equal lines: a move that is not an exchange first, so no exchange is ever undone.
    rated.sort(key=lambda t: (-t[0], _is_exchange(legal[t[1]]), t[1]))
    return [Rated(legal[i], v, 0) for v, i in rated]


class TurnTimer:
    """Splits one turn's thinking time over the moves of that turn, so a bot's whole turn stays
    within `turn_budget` seconds of thinking, each move taking at most `per_move`."""

    def __init__(
        self,
        turn_budget: float = TURN_BUDGET,
        per_move: float = DEFAULT_BUDGET,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.turn_budget = turn_budget
        self.per_move = per_move
        self.clock = clock
        self.key: tuple[Any, ...] | None = None
        self.started = 0.0

    def budget(self, view: dict[str, Any]) -> float:
        turn = view.get("turn") or {}
        key = (view.get("phase"), view.get("round"), turn.get("seat"), turn.get("number"))
        now = self.clock()
        if key != self.key:
            self.key, self.started = key, now
        left = self.turn_budget - (now - self.started)
        return max(0.0, min(self.per_move, left / 2.0))


def canonical(move: dict[str, Any]) -> str:
    """A stable text form of a wire move, for comparing moves."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))
