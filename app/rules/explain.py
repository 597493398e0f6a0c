"""Every piece on the board explains itself: ``explain_for(state, seat)``.

Two parts, both for one seat (or a spectator, ``seat=None``):

- ``elements``: per board element id (the ids the client gives its pieces: ``location:castle``,
  ``hut:forest:0``, ``marker:gift:wood``, ``marker:stone``, ``advisor:baker``, ``title:baron``,
  ``event:<id>``, ``favor:pile``, ``token:<id>``, ``card:<id>``) a catalogue key and its values,
  read from the seat's own view (``view_for``), so nothing hidden can reach it;
- ``moves``: per legal move of the seat, what it would change for that seat, found by applying
  the move with the engine's own ``apply_move`` and comparing the seat's public figures (CP, BP,
  resources, goods, pieces) and the markers before and after. A move that draws (favor tokens,
  cards) says so but never what; a move after which the next event is revealed promises nothing
  (``known`` is False): what that event brings is not known to anyone yet.
"""

from __future__ import annotations

from typing import Any

from . import data
from .contracts import MarkerView, PlayerView, View
from .explain_contracts import (
    PIECE_FIGURES,
    ElementNote,
    ExplainParam,
    Explanation,
    MarkerChange,
    MoveEffect,
)
from .moves import VISIT_KINDS, encode_move
from .state import GameState
from .turn import apply_move, legal_moves, to_act
from .view import view_for

# The rules page's anchors (/rules#<anchor>) the notes point to.
RULE_OF_LOCATION = {
    **{loc: "locations" for loc in data.COUNTRYSIDE},
    "castle": "locations",
    "cathedral": "locations",
    "construction_site": "deliveries",
    "market": "market",
}
_DRAW_EVENTS = {"favor_drawn": "favor_tokens", "cards_drawn": "cards"}


def explain_for(state: GameState, seat: int | None) -> Explanation:
    """The notes of every visible piece and the promised effect of each legal move of ``seat``."""
    view = view_for(state, seat)
    moves: list[MoveEffect] = []
    if seat is not None and seat in to_act(state):
        moves = [_effect(state, view, seat, encode_move(m)) for m in legal_moves(state, seat)]
    elements = _elements(view, seat)
    for index, effect in enumerate(moves):
        for element in involved(view, seat, effect["move"]):
            note = elements.get(element)
            if note is not None:
                note["moves"].append(index)
    return {"seat": seat, "elements": elements, "moves": moves}


# ------------------------------------------------------------------------------ moves


def figures(p: PlayerView) -> dict[str, int]:
    """A seat's public figures: CP, BP, resources, goods and the count of each kind of piece."""
    out: dict[str, int] = {"cp": p["cp"], "bp": p["bp"]}
    out.update(p["resources"])
    out.update(p["goods"])
    for piece in PIECE_FIGURES:
        out[piece] = len(p[piece])  # type: ignore[literal-required]
    return out


def gains_between(before: PlayerView, after: PlayerView) -> dict[str, int]:
    old, new = figures(before), figures(after)
    return {k: new[k] - old[k] for k in new if new[k] != old.get(k, 0)}


def _markers(view: View) -> dict[str, MarkerView]:
    mk = view["markers"]
    out: dict[str, MarkerView] = {}
    for kind in ("gift", "donation"):
        side: dict[str, MarkerView] = mk[kind]
        for res, marker in side.items():
            out[f"{kind}.{res}"] = marker
    out["stone"] = mk["stone"]
    out["bread"] = mk["bread"]
    return out


def marker_changes(before: View, after: View) -> list[MarkerChange]:
    old, new = _markers(before), _markers(after)
    return [
        {
            "marker": name,
            "before": old[name]["value"],
            "after": new[name]["value"],
            "removed": new[name]["removed"] and not old[name]["removed"],
        }
        for name in old
        if (old[name]["value"], old[name]["steps_left"], old[name]["removed"])
        != (new[name]["value"], new[name]["steps_left"], new[name]["removed"])
    ]


def _effect(state: GameState, view: View, seat: int, move: dict[str, Any]) -> MoveEffect:
    result = apply_move(state, seat, move)
    kinds = [ev["type"] for ev in result.events]
    draws = sorted({_DRAW_EVENTS[k] for k in kinds if k in _DRAW_EVENTS})
    known = "event_revealed" not in kinds
    after = view_for(result.state, seat)
    return {
        "move": move,
        "known": known,
        "gains": gains_between(view["players_state"][seat], after["players_state"][seat])
        if known
        else {},
        "markers": marker_changes(view, after) if known else [],
        "blind_draws": draws,
        "ends_turn": "turn_ended" in kinds,
        "ends_round": "round_ended" in kinds,
    }


def involved(view: View, seat: int | None, move: dict[str, Any]) -> list[str]:
    """The board elements a move concerns (its location, hut, marker, advisor, title, token,
    card), so a piece's note can list what the seat may do with it."""
    kind = move["kind"]
    out: list[str] = []
    turn = view["turn"]
    if "location" in move:
        out.append("location:" + move["location"])
        if "hut" in move:
            out.append(f"hut:{move['location']}:{move['hut']}")
    if kind in VISIT_KINDS and turn is not None and turn["visit"] is not None:
        out.append("location:" + turn["visit"]["location"])
    if kind in ("move", "card_action") and "councilor" in move and seat is not None and turn:
        steps = 1 if kind == "card_action" else (turn["slot"] or 0)
        order = view["rondels"][move["councilor"]]
        here = view["councilors"][seat][move["councilor"]]
        out.append("location:" + order[(order.index(here) + steps) % len(order)])
    if "advisor" in move:
        out.append("advisor:" + move["advisor"])
    if "card" in move:
        out.append("card:" + move["card"])
    elif kind == "card_action" and turn is not None and turn["card"] is not None:
        out.append("card:" + turn["card"])
    if "token" in move:
        out.append(f"token:{move['token']}")
    if kind == "castle_gift":
        out.append("marker:gift:" + move["resource"])
    elif kind == "cathedral_donation":
        out.append("marker:donation:" + move["resource"])
    elif kind == "deliver_stone":
        out.append("marker:stone")
    elif kind == "deliver_bread":
        out.append("marker:bread")
    elif kind == "raise_title" and seat is not None:
        nxt = next_title(view["players_state"][seat])
        if nxt is not None:
            out.append("title:" + nxt)
    elif kind == "event_option" and view["event"] is not None:
        out.append("event:" + view["event"]["id"])
    return list(dict.fromkeys(out))


def next_title(p: PlayerView) -> str | None:
    held = {t["id"] for t in p["titles"]}
    return next((t for t in data.TITLES if t not in held), None)


# ------------------------------------------------------------------------------ elements


def _note(
    key: str, params: dict[str, ExplainParam], rule: str, detail: str | None = None
) -> ElementNote:
    return {"key": "explain." + key, "params": params, "detail": detail, "rule": rule, "moves": []}


def _next_marker_value(view: View, kind: str, resource: str | None) -> int:
    """The marker's value after one more use: its next printed step, else the board value."""
    m = _markers(view)[kind if resource is None else f"{kind}.{resource}"]
    if m["removed"] or m["steps_left"] == 0:
        board: int = data.MARKERS[kind]["board"]
        return board
    side = _marker_side(view, kind)
    seq: list[int] = data.MARKERS[kind][side]
    # The remaining steps are the tail of the printed sequence.
    return seq[len(seq) - m["steps_left"]]


def _marker_side(view: View, kind: str) -> str:
    n = view["players"]
    if n == 1:
        side: str = data.MARKERS["solo_sides"][kind]
        return side
    return "4" if n == 4 else "2-3"


def _location_notes(view: View, seat: int | None) -> dict[str, ElementNote]:
    out: dict[str, ElementNote] = {}
    mine = view["players_state"][seat] if seat is not None else None
    for loc, res in data.COUNTRYSIDE.items():
        own = 0 if mine is None else sum(1 for c in mine["craftsmen"] if c["location"] == loc)
        out["location:" + loc] = _note(
            "location.countryside",
            {"location": loc, "resource": res, "own": own, "harvest": 1 + own},
            RULE_OF_LOCATION[loc],
        )
    mk = view["markers"]
    out["location:castle"] = _note(
        "location.castle",
        {
            "gifts": {r: mk["gift"][r]["value"] for r in data.RESOURCES},
            "book_bp": data.CASTLE_BOOK_BP,
        },
        "locations",
    )
    out["location:cathedral"] = _note(
        "location.cathedral",
        {"donations": {r: mk["donation"][r]["value"] for r in data.RESOURCES}},
        "locations",
    )
    out["location:construction_site"] = _note(
        "location.construction_site",
        {
            "stone_cp": mk["stone"]["value"],
            "stone_bp": data.STONE_BP,
            "bread_cp": mk["bread"]["value"],
            "wood_bp_1": data.WOOD_BP[1],
            "wood_bp_3": data.WOOD_BP[3],
        },
        "deliveries",
    )
    books = data.MARKET_BOOKS_CP
    out["location:market"] = _note(
        "location.market",
        {"books_cp": " / ".join(str(data.MARKET_BOOKS_CP[n]) for n in sorted(books))},
        "market",
    )
    return out


def _hut_notes(view: View, seat: int | None) -> dict[str, ElementNote]:
    out: dict[str, ElementNote] = {}
    mine = view["players_state"][seat] if seat is not None else None
    for loc, huts in view["huts"].items():
        for i, hut in enumerate(huts):
            cost: dict[str, int] = dict(hut["cost"])
            if hut["occupant"] is not None:
                note = _note(
                    "hut.taken",
                    {"seat": hut["occupant"], "location": loc, "resource": data.COUNTRYSIDE[loc]},
                    "craftsmen",
                )
            elif mine is None:
                note = _note("hut.public", {"cost": cost}, "craftsmen")
            elif mine["craftsmen_left"] == 0:
                note = _note("hut.none_left", {"cost": cost}, "craftsmen")
            else:
                placed = len(data.CRAFTSMAN_CP) - mine["craftsmen_left"]
                note = _note(
                    "hut.free",
                    {"cost": cost, "cp": data.CRAFTSMAN_CP[placed], "location": loc},
                    "craftsmen",
                )
            out[f"hut:{loc}:{i}"] = note
    return out


def _marker_notes(view: View) -> dict[str, ElementNote]:
    out: dict[str, ElementNote] = {}
    mk = view["markers"]
    for kind in ("gift", "donation"):
        side: dict[str, MarkerView] = mk[kind]
        for res in data.RESOURCES:
            out[f"marker:{kind}:{res}"] = _note(
                f"marker.{kind}",
                {
                    "resource": res,
                    "value": side[res]["value"],
                    "next": _next_marker_value(view, kind, res),
                    "left": side[res]["steps_left"],
                },
                "locations",
            )
    out["marker:stone"] = _note(
        "marker.stone",
        {
            "value": mk["stone"]["value"],
            "bp": data.STONE_BP,
            "next": _next_marker_value(view, "stone", None),
            "left": mk["stone"]["steps_left"],
        },
        "deliveries",
    )
    out["marker:bread"] = _note(
        "marker.bread",
        {
            "value": mk["bread"]["value"],
            "next": _next_marker_value(view, "bread", None),
            "left": mk["bread"]["steps_left"],
        },
        "deliveries",
    )
    return out


def _advisor_notes(view: View) -> dict[str, ElementNote]:
    out: dict[str, ElementNote] = {}
    adv = view["advisors"]
    shown = [a for loc in data.TOWN for a in adv["display"].get(loc, [])]
    if adv["b_top"] is not None:
        shown.append(adv["b_top"])
    for a in shown:
        gain = {k: v for k, v in (("cp", data.ADVISOR_CP[a]), ("bp", data.ADVISOR_BP[a])) if v}
        kind = data.ADVISOR_KIND[a]
        key = "advisor." + (kind if kind in ("immediate", "per_turn", "permanent") else "b")
        out["advisor:" + a] = _note(
            key, {"cost": dict(adv["costs"][a]), "gain": gain}, "advisors", "advtext." + a
        )
    return out


def _title_notes(view: View, seat: int | None) -> dict[str, ElementNote]:
    out: dict[str, ElementNote] = {}
    mine = view["players_state"][seat] if seat is not None else None
    nxt = None if mine is None else next_title(mine)
    held = set() if mine is None else {t["id"] for t in mine["titles"]}
    for n in view["nobility"]:
        params: dict[str, ExplainParam] = {"title": n["id"], "cost": dict(n["cost"])}
        if n["id"] in held:
            key = "title.held"
        elif n["top"] is None:
            key = "title.empty"
        else:
            params.update({"cp": n["top"], "left": n["left"]})
            key = "title.next" if n["id"] == nxt else "title.later"
        out["title:" + n["id"]] = _note(key, params, "titles")
    return out


def _other_notes(view: View, seat: int | None) -> dict[str, ElementNote]:
    out: dict[str, ElementNote] = {}
    ev = view["event"]
    if ev is not None:
        out["event:" + ev["id"]] = _note(
            "event." + ev["timing"], {"event": ev["id"]}, "events", "eventtext." + ev["id"]
        )
    out["favor:pile"] = _note(
        "favor.pile",
        {"pile": view["favor"]["pile"], "discard": view["favor"]["discard"]},
        "favor-tokens",
    )
    tokens = [t for p in view["players_state"] for t in p["favor_tokens"]]
    me = view["me"]
    if me is not None and me["decision"] is not None:
        tokens.extend(me["decision"].get("tokens", []))
    for tok in tokens:
        out[f"token:{tok['id']}"] = _note(
            "token", {"location": tok["location"], "gain": dict(tok["reward"])}, "favor-tokens"
        )
    cards = [] if me is None else list(me["hand"])
    for p in view["players_state"]:
        cards.extend(c for c in p["slots"].values() if c is not None)
    for c in dict.fromkeys(cards):
        out["card:" + c] = _note("card", {"card": c}, "turn", "cardtext." + c)
    return out


def _elements(view: View, seat: int | None) -> dict[str, ElementNote]:
    return {
        **_location_notes(view, seat),
        **_hut_notes(view, seat),
        **_marker_notes(view),
        **_advisor_notes(view),
        **_title_notes(view, seat),
        **_other_notes(view, seat),
    }
