"""Determinization: a full game state consistent with one seat's view.

Everything the view shows is copied; everything it hides is sampled from what is still possible:
other players' hands and every deck (from the action cards not on their slots), the favor draw and
discard piles (from the tokens nobody holds), the boxed A advisors, the B stack under its public
top card, the event deck under its public top card, and the RNG seed. The result goes through the
engine's own `decode_state`, so a sampled state is an ordinary engine state, and
`view_for(sampled, seat)` equals the view it was built from.

The favor tokens kept in the current visit come from the view's `turn.visit.fresh`, so exactly
those are held back from cashing. One thing a view cannot tell is settled by sampling: a past
round's played cards are drawn from the cards not in hand, deck or slots.
"""

from __future__ import annotations

import random
from typing import Any

from app import rules
from app.rules import data
from app.rules.contracts import EventCardView, MarkersView, MarkerView
from app.rules.events import legal_event_options
from app.rules.state import St


def _sample(rng: random.Random, pool: list[Any], k: int) -> list[Any]:
    k = max(0, min(k, len(pool)))
    return rng.sample(pool, k)


def determinize(view: rules.View, rng: random.Random) -> rules.GameState:
    """A `GameState` the viewing seat cannot tell from the real one."""
    me = view["me"]
    if me is None:
        raise ValueError("a sampled state needs the seat's own view")
    seat: int = int(me["seat"])
    n: int = int(view["players"])
    opts = view["options"]
    # Printed marker sequences for this player count come from a fresh set-up.
    skeleton = rules.encode_state(
        rules.new_game(0, {"players": n, "random_locations": bool(opts["random_locations"])})
    )
    full_selection = bool(opts["full_selection"])

    ps: list[St] = []
    for s, pv in enumerate(view["players_state"]):
        slots = [pv["slots"][str(i + 1)] for i in range(len(data.SLOTS))]
        pool = list(data.ACTION_CARDS)
        for c in slots:
            if c is not None and c in pool:
                pool.remove(c)
        if s == seat:
            hand = list(me["hand"])
            for c in hand:
                if c in pool:
                    pool.remove(c)
        else:
            hand = _sample(rng, pool, int(pv["hand_size"]))
            for c in hand:
                pool.remove(c)
        deck = _sample(rng, pool, int(pv["deck_size"]))
        for c in deck:
            pool.remove(c)
        played = pool  # cards used in earlier rounds since the last reshuffle
        if full_selection:
            played = [c for c in data.ACTION_CARDS if c not in hand and c not in slots]
        ps.append(
            {
                "cp": pv["cp"],
                "bp": pv["bp"],
                "res": dict(pv["resources"]),
                "goods": dict(pv["goods"]),
                "craftsmen_left": pv["craftsmen_left"],
                "craftsmen": [[c["location"], c["hut"]] for c in pv["craftsmen"]],
                "advisors": list(pv["advisors"]),
                "titles": [[t["id"], t["cp"]] for t in pv["titles"]],
                "favor": sorted(t["id"] for t in pv["favor_tokens"]),
                "slots": slots,
                "hand": hand,
                "deck": deck,
                "played": played,
                "turns_taken": pv["turns_taken"],
                # points by source are public: the view's, without the sources at 0
                "points": {
                    track: {src: n for src, n in pv["points"][track].items() if n}
                    for track in ("cp", "bp")
                },
            }
        )

    # Favor tokens: those nobody holds (and not among the three on offer) are in the piles.
    decision_view = me.get("decision")
    offered: list[int] = []
    if decision_view and decision_view.get("kind") == "keep_favor":
        offered = [t["id"] for t in decision_view["tokens"]]
    held = {t for p in ps for t in p["favor"]}
    free = [t for t in range(len(data.FAVOR_TOKENS)) if t not in held and t not in offered]
    rng.shuffle(free)
    pile_n = int(view["favor"]["pile"])
    favor = {
        "pile": free[:pile_n],
        "discard": free[pile_n : pile_n + int(view["favor"]["discard"])],
    }

    # Advisors: the display and the top of the B stack are public; the rest is sampled.
    adv = view["advisors"]
    display = {loc: list(adv["display"].get(loc, [])) for loc in data.TOWN}
    seen = {a for lst in display.values() for a in lst} | {a for p in ps for a in p["advisors"]}
    boxed = [a for a in data.A_ADVISORS if a not in seen]
    rng.shuffle(boxed)
    b_stack: list[str] = []
    if adv["b_top"] is not None:
        rest = [b for b in data.B_ADVISORS if b not in seen and b != adv["b_top"]]
        b_stack = [adv["b_top"], *_sample(rng, rest, int(adv["b_left"]) - 1)]

    nobility = {
        row["id"]: list(
            data.TITLE_CARDS[row["id"]][len(data.TITLE_CARDS[row["id"]]) - row["left"] :]
        )
        if row["left"]
        else []
        for row in view["nobility"]
    }

    # Event deck: the top card is public; the cards under it are any not seen.
    events_pool = [e for e in data.EVENT_IDS if not (n == 1 and e in data.EVENT_SOLO_REMOVED)]
    event_deck: list[str] = []
    top = _card_id(view["event_top"])
    if top is not None:
        current = _card_id(view["event"])
        under = [e for e in events_pool if e != top and e != current]
        event_deck = [top, *_sample(rng, under, int(view["events_left"]) - 1)]

    markers = _markers(view["markers"], skeleton["markers"])

    turn_view = view.get("turn")
    turn: St | None = None
    turn_index = 0
    if turn_view is not None:
        visit = turn_view["visit"]
        turn = {
            "seat": turn_view["seat"],
            "number": turn_view["number"],
            "card": turn_view["card"],
            "slot": turn_view["slot"],
            "card_action_done": turn_view["card_action_done"],
            "moved": turn_view["moved"],
            "bonus_used": dict(turn_view["bonus_used"]),
            "advisors_used": list(turn_view["advisors_used"]),
            "visit": None
            if visit is None
            else {
                "location": visit["location"],
                "via": visit["via"],
                "done": list(visit["done"]),
                "fresh": list(visit["fresh"]),
            },
        }
        turn_index = (turn_view["number"] - 1) * n + (turn_view["seat"] - view["statue"]) % n
    elif view["phase"] == "end_of_round":
        turn_index = data.HAND_SIZE * n

    vic = view.get("victoria")
    tree: St = {
        "schema": skeleton["schema"],
        "rng": {"seed": rng.getrandbits(48), "draws": 0},
        "players": n,
        "phase": view["phase"],
        "round": view["round"],
        "statue": view["statue"],
        "turn_index": turn_index,
        "turn": turn,
        "decision": None,
        "event": _card_id(view["event"]),
        # a sampled position never takes moves back: bots and their playouts do not undo
        "options": {**opts, "undo": False},
        "rondels": {k: list(v) for k, v in view["rondels"].items()},
        "councilors": [dict(c) for c in view["councilors"]],
        "markers": markers,
        "huts": {loc: [h["occupant"] for h in huts] for loc, huts in view["huts"].items()},
        "favor": favor,
        "display": display,
        "boxed_advisors": boxed,
        "b_stack": b_stack,
        "nobility": nobility,
        "event_deck": event_deck,
        "ps": ps,
        "victoria": None
        if vic is None
        else {"cp": vic["cp"], "titles": [[t["id"], t["cp"]] for t in vic["titles"]]},
    }
    tree["decision"] = _decision(view, tree, seat)
    return rules.decode_state(tree)


def _card_id(card: EventCardView | None) -> str | None:
    return None if card is None else card["id"]


def _markers(mview: MarkersView, printed: St) -> St:
    def rest(seq: list[int], mv: MarkerView) -> list[int]:
        if mv["removed"]:
            return []
        keep = int(mv["steps_left"]) + 1
        tail = list(seq[len(seq) - keep :]) if keep <= len(seq) else list(seq)
        if not tail or tail[0] != mv["value"]:  # a side the skeleton did not use; trust the view
            tail = [mv["value"], *tail[1:]]
        return tail

    out: St = {}
    for name in ("gift", "donation"):
        row = mview["gift"] if name == "gift" else mview["donation"]
        out[name] = {r: rest(printed[name][r], row[r]) for r in data.RESOURCES}
    out["stone"] = rest(printed["stone"], mview["stone"])
    out["bread"] = rest(printed["bread"], mview["bread"])
    return out


def _decision(view: rules.View, tree: St, seat: int) -> St | None:
    me = view["me"]
    dec: St | None = None if me is None or me["decision"] is None else dict(me["decision"])
    to_act = list(view.get("to_act") or [])
    if dec is None and to_act and seat not in to_act and view["phase"] != "turns":
        # another seat's decision outside the turns: which one the phase and the board tell
        seat = to_act[0]
        if view["phase"] == "end_of_round":
            dec = {"kind": "event_option", "event": _card_id(view["event"])}
        elif len(tree["councilors"][seat]) < len(tree["rondels"]):
            dec = {"kind": "place_councilor"}
        else:
            dec = {"kind": "choose_resource"}
    if dec is None:
        return None
    kind = dec["kind"]
    if kind == "keep_favor":
        return {"kind": kind, "seat": seat, "tokens": [t["id"] for t in dec["tokens"]]}
    if kind == "choose_resource":
        return {"kind": kind, "seats": to_act}
    if kind == "event_option":
        n = tree["players"]
        order = [(tree["statue"] + i) % n for i in range(n)]
        after = order[order.index(seat) + 1 :]
        queue = [s for s in after if legal_event_options(tree, s)]
        return {"kind": kind, "seat": seat, "queue": queue, "event": dec["event"]}
    if kind == "place_councilor":
        have = set(tree["councilors"][seat])
        other = next(k for k in tree["rondels"] if k not in have)
        out: St = {
            "kind": kind,
            "seat": seat,
            "councilor": other,
            "locations": list(tree["rondels"][other]),
        }
        top = _card_id(view["event_top"])
        if top is not None:  # the start locations the top event card named (rules/setup.py)
            c_start, t_start, _ = data.EVENT_START[top]
            out["from"] = [t_start, c_start]
        return out
    return None
