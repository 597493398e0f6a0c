"""Turn and round flow: who acts, which moves are legal, and applying a move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import data
from .advisors import (
    can_raise_title,
    hire_advisor,
    hire_craftsman,
    legal_hire_advisor,
    legal_hire_craftsman,
    legal_use_advisor,
    raise_title,
    use_advisor,
)
from .cards import card_action, legal_card_actions, move_councilor
from .copying import Draft
from .events import (
    apply_event_option,
    has_end_of_round_choice,
    legal_event_options,
    reveal_event,
)
from .locations import apply_visit_move, close_visit, keep_favor, legal_visit_moves
from .moves import VISIT_KINDS, IllegalMoveError, Move, Transition, decode_move, encode_move
from .scoring import compute_outcome
from .solo import victoria_step
from .state import (
    Ev,
    GameState,
    St,
    gain_items,
    player,
    seats_from,
    shuffle,
)
from .undo import note_move, take_back

# Moves that may end a turn, a round or the set-up touch every player; all others change only
# the acting seat's player record (besides the shared board), so the others can be shared.
_ROUND_KINDS = frozenset(
    {"end_turn", "event_option", "decline", "choose_resource", "place_councilor"}
)

DECISION_KINDS = frozenset(
    {"keep_favor", "event_option", "decline", "choose_resource", "place_councilor"}
)
# ---------------------------------------------------------------------------------------------
# Who acts.


def seats_to_act(st: St) -> list[int]:
    phase = st["phase"]
    if phase == "finished":
        return []
    dec = st["decision"]
    if dec is not None:
        if dec["kind"] == "choose_resource":
            return list(dec["seats"])
        return [dec["seat"]]
    if phase == "turns":
        return [st["turn"]["seat"]]
    return []


def to_act(state: GameState) -> list[int]:
    return seats_to_act(state.tree)


# ---------------------------------------------------------------------------------------------
# Legal moves.


def legal_dicts(st: St, seat: int) -> list[dict[str, Any]]:
    if seat not in seats_to_act(st):
        return []
    dec = st["decision"]
    if dec is not None:
        kind = dec["kind"]
        if kind == "keep_favor":
            return [{"kind": "keep_favor", "token": t} for t in dec["tokens"]]
        if kind == "event_option":
            return [*legal_event_options(st, seat), {"kind": "decline"}]
        if kind == "choose_resource":
            return [{"kind": "choose_resource", "resource": r} for r in data.RESOURCES]
        if kind == "place_councilor":
            out = [{"kind": "place_councilor", "location": loc} for loc in dec["locations"]]
            for leave in dec.get("from", [])[1:]:
                for loc in dec["locations"]:
                    out.append({"kind": "place_councilor", "location": loc, "from": leave})
            return out
        return []
    turn = st["turn"]
    p = player(st, seat)
    if turn["card"] is None:
        out = []
        for card in p["hand"]:
            for slot in data.SLOTS:
                if p["slots"][slot - 1] is None:
                    out.append({"kind": "play_card", "card": card, "slot": slot})
        return out
    out = legal_visit_moves(st, seat)
    if not turn["card_action_done"]:
        out.extend(legal_card_actions(st, seat, turn["card"]))
    if not turn["moved"]:
        for key in st["councilors"][seat]:
            out.append({"kind": "move", "councilor": key})
    bonus = turn["bonus_used"]
    if not bonus["raise_title"] and can_raise_title(st, seat):
        out.append({"kind": "raise_title"})
    if not bonus["hire_craftsman"]:
        for loc, hut, pay in legal_hire_craftsman(st, seat, 0):
            out.append({"kind": "hire_craftsman", "location": loc, "hut": hut, "pay": pay})
    if not bonus["hire_advisor"]:
        for adv, pay in legal_hire_advisor(st, seat, 0):
            out.append({"kind": "hire_advisor", "advisor": adv, "pay": pay})
    out.extend(legal_use_advisor(st, seat))
    if turn["moved"]:
        out.append({"kind": "end_turn"})
    return out


def legal_moves(state: GameState, seat: int) -> list[Move]:
    return [Move(m.pop("kind"), m) for m in legal_dicts(state.tree, seat)]


# ---------------------------------------------------------------------------------------------
# Applying moves.


def apply_move(state: GameState, seat: int, move: Move | Mapping[str, Any]) -> Transition:
    mv = decode_move(move)
    src = state.tree
    if src["phase"] == "finished":
        raise IllegalMoveError("game_over", "the game is over")
    if not isinstance(seat, int) or seat not in seats_to_act(src):
        raise IllegalMoveError("not_your_turn", f"seat {seat} may not move now")
    if mv.kind == "undo":
        back, count = take_back(src, seat, mv, _replay_one)
        taken = [{"type": "moves_taken_back", "seat": seat, "count": count}]
        return Transition(back, taken, encode_move(mv))
    # Copied as the move reaches it: what it never reads stays shared with ``src``.
    st = Draft(src, None if mv.kind in _ROUND_KINDS else seat)
    events: Ev = []
    _dispatch(st, seat, mv, events)
    note_move(src, st, seat, encode_move(mv), events)
    # (its own copy: the state's undo record and the server's log row share no dictionary)
    return Transition(GameState(st.tree()), events, encode_move(mv))


def _replay_one(state: GameState, seat: int, move: Mapping[str, Any]) -> GameState:
    return apply_move(state, seat, move).state


def _dispatch(st: St, seat: int, mv: Move, events: Ev) -> None:
    kind = mv.kind
    dec = st["decision"]
    if dec is not None:
        if kind != dec["kind"] and not (dec["kind"] == "event_option" and kind == "decline"):
            raise IllegalMoveError("decision_pending", f"first decide: {dec['kind']}")
        _apply_decision(st, seat, mv, events)
        return
    if kind in DECISION_KINDS:
        raise IllegalMoveError("no_decision", f"no {kind} decision is pending")
    turn = st["turn"]
    if kind in VISIT_KINDS:
        apply_visit_move(st, seat, mv, events)
        return
    if kind != "use_advisor":
        # an advisor ability is not an action: it leaves an open visit open (rules §3, RULING)
        close_visit(st, seat, events)
    p = player(st, seat)
    if kind == "play_card":
        if turn["card"] is not None:
            raise IllegalMoveError("card_already_played", "a card was already played this turn")
        card, slot = mv.args["card"], mv.args["slot"]
        if slot not in data.SLOTS:
            raise IllegalMoveError("bad_slot", f"slot must be one of {list(data.SLOTS)}")
        if card not in p["hand"]:
            raise IllegalMoveError("card_not_in_hand", f"{card} is not in your hand")
        if p["slots"][slot - 1] is not None:
            raise IllegalMoveError("slot_taken", f"slot {slot} is already used this round")
        p["hand"].remove(card)
        p["slots"][slot - 1] = card
        turn["card"], turn["slot"] = card, slot
        events.append({"type": "card_played", "seat": seat, "card": card, "slot": slot})
        return
    if turn["card"] is None:
        raise IllegalMoveError("must_play_card", "play a card first")
    if kind == "card_action":
        if turn["card_action_done"]:
            raise IllegalMoveError("action_used", "the card action was already taken")
        turn["card_action_done"] = True
        card_action(st, seat, turn["card"], mv, events)
    elif kind == "move":
        if turn["moved"]:
            raise IllegalMoveError("already_moved", "the movement action was already taken")
        turn["moved"] = True
        move_councilor(st, seat, mv.args["councilor"], turn["slot"], "move", events)
    elif kind == "raise_title":
        _use_bonus(turn, "raise_title")
        raise_title(st, seat, events)
    elif kind == "hire_craftsman":
        _use_bonus(turn, "hire_craftsman")
        hire_craftsman(st, seat, mv.args, 0, "hire_craftsman", events)
    elif kind == "hire_advisor":
        _use_bonus(turn, "hire_advisor")
        hire_advisor(st, seat, mv.args, 0, "hire_advisor", events)
    elif kind == "use_advisor":
        use_advisor(st, seat, mv, events)
    elif kind == "end_turn":
        if not turn["moved"]:
            raise IllegalMoveError("must_move_first", "the movement action is mandatory")
        _end_turn(st, seat, events)
    else:  # pragma: no cover - decode_move knows every kind
        raise IllegalMoveError("unknown_kind", kind)


def _use_bonus(turn: St, name: str) -> None:
    if turn["bonus_used"][name]:
        raise IllegalMoveError("bonus_used", f"{name} was already used this turn")
    turn["bonus_used"][name] = True


# ---------------------------------------------------------------------------------------------
# Decisions.


def _apply_decision(st: St, seat: int, mv: Move, events: Ev) -> None:
    dec = st["decision"]
    kind = dec["kind"]
    if kind == "keep_favor":
        keep_favor(st, seat, mv.args["token"], events)
    elif kind == "event_option":
        if mv.kind == "decline":
            events.append({"type": "event_declined", "seat": seat, "event": st["event"]})
        else:
            apply_event_option(st, seat, mv, events)
        queue: list[int] = dec["queue"]
        if queue:
            dec["seat"] = queue.pop(0)
        else:
            st["decision"] = None
            _finish_round(st, events)
    elif kind == "place_councilor":
        loc = mv.args["location"]
        if loc not in dec["locations"]:
            raise IllegalMoveError("bad_location", "choose a location of the other rondel")
        named: list[str] = dec.get("from") or []
        leave = mv.args.get("from", named[0] if named else None)
        if named and leave not in named:
            raise IllegalMoveError("bad_location", "from must be one of the two named locations")
        key = dec["councilor"]
        if named:
            # the councilor leaving ``leave`` moves; the other named location keeps its councilor
            stay_key = next(k for k in st["councilors"][seat] if k != key)
            st["councilors"][seat][stay_key] = next(x for x in named if x != leave)
        st["councilors"][seat][key] = loc
        events.append({"type": "councilor_placed", "seat": seat, "councilor": key, "location": loc})
        st["decision"] = None
        from .setup import place_others

        place_others(st, events)
    elif kind == "choose_resource":
        res = mv.args["resource"]
        if res not in data.RESOURCES:
            raise IllegalMoveError("bad_resource", f"unknown resource {res!r}")
        dec["seats"].remove(seat)
        gain_items(st, seat, {res: data.EFFECTS["setup_resource"]}, "setup", events)
        events.append({"type": "resource_chosen", "seat": seat, "resource": res})
        if not dec["seats"]:
            st["decision"] = None
            start_round(st, events)


# ---------------------------------------------------------------------------------------------
# Turn and round flow.


def _new_turn(st: St, events: Ev) -> None:
    n: int = st["players"]
    index: int = st["turn_index"]
    seat = (st["statue"] + index) % n
    st["turn"] = {
        "seat": seat,
        "number": index // n + 1,
        "card": None,
        "slot": None,
        "card_action_done": False,
        "moved": False,
        "bonus_used": {"raise_title": False, "hire_craftsman": False, "hire_advisor": False},
        "advisors_used": [],
        "visit": None,
    }
    events.append({"type": "turn_started", "seat": seat, "number": index // n + 1})


def _end_turn(st: St, seat: int, events: Ev) -> None:
    player(st, seat)["turns_taken"] += 1
    events.append({"type": "turn_ended", "seat": seat})
    st["turn_index"] += 1
    if st["turn_index"] >= data.HAND_SIZE * st["players"]:
        st["turn"] = None
        _end_round(st, events)
    else:
        _new_turn(st, events)


def start_round(st: St, events: Ev) -> None:
    st["round"] += 1
    st["phase"] = "turns"
    st["turn_index"] = 0
    events.append({"type": "round_started", "round": st["round"], "statue": st["statue"]})
    reveal_event(st, events)
    _new_turn(st, events)


def _end_round(st: St, events: Ev) -> None:
    events.append({"type": "round_ended", "round": st["round"]})
    if has_end_of_round_choice(st["event"]):
        queue = [s for s in seats_from(st, st["statue"]) if legal_event_options(st, s)]
        if queue:
            st["phase"] = "end_of_round"
            st["decision"] = {
                "kind": "event_option",
                "seat": queue[0],
                "queue": queue[1:],
                "event": st["event"],
            }
            return
    _finish_round(st, events)


def draw_hand(st: St, seat: int, events: Ev) -> None:
    p = player(st, seat)
    if st["options"]["full_selection"]:
        if not p["hand"]:
            p["hand"] = [c for c in data.ACTION_CARDS if c not in p["played"]]
        drawn = list(p["hand"])
    else:
        drawn = p["deck"][: data.HAND_SIZE]
        p["deck"] = p["deck"][data.HAND_SIZE :]
        p["hand"] = drawn
    events.append(
        {"type": "cards_drawn", "seat": seat, "count": len(drawn), "cards": drawn, "private": seat}
    )


def _finish_round(st: St, events: Ev) -> None:
    st["phase"] = "turns"
    rnd: int = st["round"]
    if st["players"] == 1 and rnd >= data.VICTORIA_FROM_ROUND:
        victoria_step(st, events)
    for p in st["ps"]:
        p["played"].extend(c for c in p["slots"] if c is not None)
        p["slots"] = [None] * len(data.SLOTS)
        p["turns_taken"] = 0
    if rnd >= data.ROUNDS:
        st["phase"] = "finished"
        st["turn"] = None
        st["decision"] = None
        events.append({"type": "game_finished", "outcome": compute_outcome(st)})
        return
    st["statue"] = (st["statue"] + 1) % st["players"]
    events.append({"type": "statue_passed", "seat": st["statue"]})
    if rnd % data.RESHUFFLE_AFTER_ROUND == 0:
        for seat, p in enumerate(st["ps"]):
            p["played"] = []
            if st["options"]["full_selection"]:
                p["hand"] = []
            else:
                p["deck"] = shuffle(st, list(data.ACTION_CARDS))
            events.append({"type": "deck_reshuffled", "seat": seat})
    for seat in range(st["players"]):
        draw_hand(st, seat, events)
    start_round(st, events)


def encode_legal(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [encode_move(m) for m in legal_moves(state, seat)]
