"""Play one game with a simple greedy player and print a readable log and the final scores.

    python -m app.rules.simulate --players 3 --seed 7 [--random-locations] [--full-selection]
        [--undo-rate 0.1]

The greedy player looks one move ahead and takes the move that most improves its own final
score estimate (ties: the first such move in ``legal_moves`` order), so a game from the same
seed and options is always the same game. It is a test and demonstration aid, not an opponent.
With ``--undo-rate r`` the player, before each move where it may take moves back, does so with
probability ``r`` (to a random point of its turn, at most twice a turn; decided by a generator
seeded from the game seed, so the same command plays the same game), then plays on greedily.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from .moves import VISIT_KINDS as _VISIT_KINDS
from .moves import Move, encode_move
from .scoring import final_tracks
from .state import GameState
from .turn import apply_move, legal_moves, to_act
from .undo import undo_points

UNDOS_PER_TURN = 2

# Soft preferences between moves whose score estimates are equal.
_KIND_BONUS: dict[str, float] = {
    "harvest": 1.0,
    "card_action": 0.8,
    "hire_craftsman": 0.6,
    "hire_advisor": 0.6,
    "raise_title": 0.6,
    "cathedral_donation": 0.5,
    "castle_gift": 0.5,
    "keep_favor": 0.1,
}


def estimate(state: GameState, seat: int) -> float:
    """The seat's final score if the game ended now, with a little credit for growth."""
    p = state.tree["ps"][seat]
    t = final_tracks(p)
    res: int = sum(p["res"].values())
    value: float = (
        2.0 * min(t["cp"], t["bp"])
        + 0.25 * (t["cp"] + t["bp"])
        + 0.3 * res
        + 1.5 * (4 - p["craftsmen_left"])
        + 1.0 * len(p["advisors"])
    )
    return value


def greedy_move(state: GameState, seat: int, moves_this_turn: int) -> Move:
    options = legal_moves(state, seat)
    kinds = {m.kind for m in options}
    if moves_this_turn > 14:
        for fallback in ("end_turn", "move", "end_visit", "decline"):
            if fallback in kinds:
                return next(m for m in options if m.kind == fallback)
    base = estimate(state, seat)
    best = options[0]
    best_value = float("-inf")
    for move in options:
        after = apply_move(state, seat, move).state
        value = estimate(after, seat) - base + _KIND_BONUS.get(move.kind, 0.0)
        if move.kind in ("end_turn", "end_visit", "decline"):
            value = 0.05
        if move.kind == "use_advisor" and move.get("advisor") == "chamberlain":
            value -= 0.5
        if move.kind in ("move", "card_action") and _opened_visit(after):
            value += 0.9 * _best_visit_gain(after, seat)
        if value > best_value:
            best, best_value = move, value
    return best


def _opened_visit(state: GameState) -> bool:
    turn = state.tree["turn"]
    return turn is not None and turn["visit"] is not None


def _best_visit_gain(state: GameState, seat: int) -> float:
    """What the best single action of the visit just opened would add to the estimate."""
    if seat not in to_act(state):
        return 0.0
    base = estimate(state, seat)
    best = 0.0
    for move in legal_moves(state, seat):
        if move.kind in ("end_visit", "end_turn") or move.kind not in _VISIT_KINDS:
            continue
        after = apply_move(state, seat, move).state
        best = max(best, estimate(after, seat) - base + _KIND_BONUS.get(move.kind, 0.0))
    return best


def play_greedy(
    seed: int, options: dict[str, Any], undo_rate: float = 0.0
) -> tuple[GameState, list[dict[str, Any]], list[dict[str, Any]]]:
    """Play a whole game; return the final state, the move record and every event."""
    chance = random.Random(f"simulate-undo/{seed}")
    undos = 0
    from .setup import new_game

    state = new_game(seed, options)
    record: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    if state.round == 1:
        # set-up began round 1 already: restate its opening for the log
        tree = state.tree
        log.append({"type": "round_started", "round": 1, "statue": tree["statue"]})
        event = tree["event"]
        log.append({"type": "event_revealed", "round": 1, "event": event, "timing": ""})
        log.append({"type": "turn_started", "seat": tree["turn"]["seat"], "number": 1})
    per_turn = 0
    last_turn: tuple[int, int] | None = None
    while True:
        seats = to_act(state)
        if not seats:
            return state, record, log
        seat = seats[0]
        turn = state.tree["turn"]
        key = (state.round, state.tree["turn_index"]) if turn is not None else None
        if key != last_turn:
            per_turn, last_turn, undos = 0, key, 0
        points = undo_points(state, seat) if undo_rate > 0 else []
        wire: dict[str, Any]
        if points and undos < UNDOS_PER_TURN and chance.random() < undo_rate:
            undos += 1
            wire = {"kind": "undo", "to": chance.choice(points)["to"]}
        else:
            wire = encode_move(greedy_move(state, seat, per_turn))
        per_turn += 1
        tr = apply_move(state, seat, wire)
        record.append({"seat": seat, "move": wire})
        log.extend(tr.events)
        state = tr.state


def describe(ev: dict[str, Any]) -> str | None:
    """One event in words (``None`` for bookkeeping events not worth a line)."""
    t = ev["type"]
    who = f"Seat {ev['seat']}" if "seat" in ev else ""
    items = ", ".join(f"{n} {k}" for k, n in ev.get("items", {}).items())
    words: dict[str, str] = {
        "round_started": f"=== Round {ev.get('round')} (statue: seat {ev.get('statue')}) ===",
        "event_revealed": f"Event: {ev.get('event')}",
        "turn_started": f"-- {who}, turn {ev.get('number')}",
        "card_played": f"{who} plays {ev.get('card')} on slot {ev.get('slot')}",
        "councilor_moved": f"{who} moves the {ev.get('councilor')} councilor "
        f"{ev.get('from')} -> {ev.get('to')}",
        "items_gained": f"{who} gains {items} ({ev.get('why')})",
        "items_paid": f"{who} pays {items} ({ev.get('why')})",
        "cp_gained": f"{who} +{ev.get('amount')} CP ({ev.get('why')})",
        "cp_paid": f"{who} -{ev.get('amount')} CP ({ev.get('why')})",
        "bp_gained": f"{who} +{ev.get('amount')} BP ({ev.get('why')})",
        "title_raised": f"{who} becomes {ev.get('title')}",
        "craftsman_hired": f"{who} hires a craftsman at {ev.get('location')} hut {ev.get('hut')}",
        "advisor_hired": f"{who} hires the {ev.get('advisor')}",
        "advisor_used": f"{who} uses the {ev.get('advisor')}",
        "favor_kept": f"{who} keeps favor token {ev.get('token', {}).get('id')}",
        "favor_cashed": f"{who} cashes favor token {ev.get('token', {}).get('id')}",
        "event_option_chosen": f"{who} takes option {ev.get('option')} of {ev.get('event')}",
        "event_declined": f"{who} declines {ev.get('event')}",
        "victoria_delivered": f"Victoria delivers stone and bread: +{ev.get('cp')} CP",
        "victoria_title_taken": f"Victoria becomes {ev.get('title')}: +{ev.get('cp')} CP",
        "statue_passed": f"The statue passes to seat {ev.get('seat')}",
        "moves_taken_back": f"{who} takes back {ev.get('count')} "
        f"move{'' if ev.get('count') == 1 else 's'}",
    }
    return words.get(t)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Simulate one game of Crown of Emara.")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random-locations", action="store_true")
    parser.add_argument("--full-selection", action="store_true")
    parser.add_argument(
        "--undo-rate",
        type=float,
        default=0.0,
        help="chance (0..1) of taking moves back before a move, where possible",
    )
    args = parser.parse_args(argv)
    if not 0.0 <= args.undo_rate <= 1.0:
        parser.error("--undo-rate must be between 0 and 1")
    options = {
        "players": args.players,
        "random_locations": args.random_locations,
        "full_selection": args.full_selection,
    }
    state, record, log = play_greedy(args.seed, options, args.undo_rate)
    for ev in log:
        line = describe(ev)
        if line:
            print(line)
    from .scoring import compute_outcome

    out = compute_outcome(state.tree)
    print(f"\nFinal scores after {len(record)} moves:")
    for p in sorted(out["players"], key=lambda e: e["rank"]):
        tb = f" (tie-break: {p['tiebreak']})" if p["tiebreak"] else ""
        print(
            f"  #{p['rank']} seat {p['seat']}: {p['score']} "
            f"(CP {p['cp']}, BP {p['bp']}; leftover {p['leftover']['points']}){tb}"
        )
    if out["victoria"] is not None:
        result = "won" if out["won"] else "lost"
        print(f"  Victoria: {out['victoria']['score']} CP - the player {result}")


if __name__ == "__main__":
    main()
