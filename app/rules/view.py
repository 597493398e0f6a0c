"""Per-seat views (an allow-list built field by field) and per-seat event redaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from . import data
from .contracts import (
    AdvisorsView,
    DecisionView,
    EngineEvent,
    EventCardView,
    FavorView,
    HutView,
    MarkersView,
    MarkerView,
    MeView,
    NobilityView,
    OptionsView,
    PlayerView,
    TokenView,
    TurnView,
    VictoriaView,
    View,
)
from .locations import marker_value, token_view
from .scoring import compute_outcome, points_breakdown
from .state import GameState, St
from .undo import points

VIEW_SCHEMA = 1


def _event_view(event: str | None) -> EventCardView | None:
    if event is None:
        return None
    return {"id": event, "timing": data.EVENT_TIMING[event]}


def _marker_view(st: St, marker: str, resource: str | None = None) -> MarkerView:
    seq = st["markers"][marker] if resource is None else st["markers"][marker][resource]
    return {
        "value": marker_value(st, marker, resource),
        "steps_left": max(0, len(seq) - 1),
        "removed": not seq,
    }


def _turn_view(st: St, seat: int | None) -> TurnView | None:
    turn = st["turn"]
    if st["phase"] != "turns" or turn is None:
        return None
    visit = turn["visit"]
    bonus = turn["bonus_used"]
    return {
        "seat": turn["seat"],
        "number": turn["number"],
        "card": turn["card"],
        "slot": turn["slot"],
        "card_action_done": turn["card_action_done"],
        "moved": turn["moved"],
        "bonus_used": {
            "raise_title": bonus["raise_title"],
            "hire_craftsman": bonus["hire_craftsman"],
            "hire_advisor": bonus["hire_advisor"],
        },
        "advisors_used": list(turn["advisors_used"]),
        "visit": None
        if visit is None
        else {
            "location": visit["location"],
            "via": visit["via"],
            "done": list(visit["done"]),
            "fresh": list(visit["fresh"]),
        },
        "undo": points(st, seat),
    }


def _tokens(ids: list[int]) -> list[TokenView]:
    return [cast(TokenView, token_view(t)) for t in ids]


def _player_view(st: St, seat: int) -> PlayerView:
    p = st["ps"][seat]
    return {
        "seat": seat,
        "cp": p["cp"],
        "bp": p["bp"],
        "score": min(p["cp"], p["bp"]),
        "resources": dict(p["res"]),
        "goods": dict(p["goods"]),
        "craftsmen_left": p["craftsmen_left"],
        "craftsmen": [{"location": loc, "hut": hut} for loc, hut in p["craftsmen"]],
        "advisors": list(p["advisors"]),
        "titles": [{"id": t, "cp": cp} for t, cp in p["titles"]],
        "favor_tokens": _tokens(p["favor"]),
        "slots": {str(i + 1): c for i, c in enumerate(p["slots"])},
        "hand_size": len(p["hand"]),
        "deck_size": len(p["deck"]),
        "turns_taken": p["turns_taken"],
        "points": points_breakdown(p),
    }


def _decision_for(st: St, seat: int) -> DecisionView | None:
    dec = st["decision"]
    if dec is None:
        return None
    kind = dec["kind"]
    if kind == "choose_resource":
        return {"kind": kind} if seat in dec["seats"] else None
    if dec["seat"] != seat:
        return None
    if kind == "keep_favor":
        return {"kind": kind, "tokens": _tokens(dec["tokens"])}
    if kind == "event_option":
        return {"kind": kind, "event": dec["event"]}
    return {"kind": kind}


def _to_act(st: St) -> list[int]:
    from .turn import seats_to_act

    return seats_to_act(st)


def view_for(state: GameState, seat: int | None, kept: Kept | None = None) -> View:
    """What ``seat`` (None: a spectator) may see of the game. ``kept``: parts of an earlier
    version's public view whose source the state still shares (``kept_from``), used as they
    are instead of being built again."""
    st = state.tree
    n: int = st["players"]
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} at this table")
    finished = st["phase"] == "finished"
    k = kept or NOTHING_KEPT
    to_act = _to_act(st)
    view: View = {
        "schema": VIEW_SCHEMA,
        "players": n,
        "options": k.options if k.options is not None else _options(st),
        "phase": st["phase"],
        "round": st["round"],
        "statue": st["statue"],
        "to_act": to_act if to_act != k.to_act else k.to_act,
        "turn": _turn_view(st, seat),
        "event": k.event if k.event is not None else _event_view(st["event"]),
        "event_top": k.event_top if k.event_top is not None else _event_top(st),
        "events_left": len(st["event_deck"]),
        "rondels": k.rondels if k.rondels is not None else _rondels(st),
        "councilors": k.councilors if k.councilors is not None else _councilors(st),
        "huts": k.huts if k.huts is not None else _huts(st),
        "markers": k.markers if k.markers is not None else _markers(st),
        "advisors": k.advisors if k.advisors is not None else _advisors(st),
        "nobility": k.nobility if k.nobility is not None else _nobility(st),
        "favor": k.favor if k.favor is not None else _favor(st),
        "players_state": k.players_state
        if k.players_state is not None
        else [
            _player_view(st, s) if v is None else v for s, v in enumerate(k.players or [None] * n)
        ],
        "me": None if seat is None else view_for_me(st, seat),
        "victoria": k.victoria if k.victoria is not None else _victoria(st),
        "outcome": compute_outcome(st) if finished else None,
    }
    return view


@dataclass(frozen=True)
class Kept:
    """Parts of an earlier public view that stand for the same parts of a later state (None:
    build that part again)."""

    players: list[PlayerView | None]  # per seat: its earlier view, None to build it again
    rondels: dict[str, list[str]] | None = None
    councilors: list[dict[str, str]] | None = None
    huts: dict[str, list[HutView]] | None = None
    markers: MarkersView | None = None
    advisors: AdvisorsView | None = None
    nobility: list[NobilityView] | None = None
    options: OptionsView | None = None
    event: EventCardView | None = None
    event_top: EventCardView | None = None
    favor: FavorView | None = None
    victoria: VictoriaView | None = None
    players_state: list[PlayerView] | None = None  # the whole list, when every player is kept
    to_act: list[int] | None = None  # the earlier view's, used when equal to the state's


NOTHING_KEPT = Kept(players=[])


def kept_from(state: GameState, earlier: tuple[GameState, View] | None) -> Kept | None:
    """What of ``earlier`` (a state and its public view) holds for ``state``.

    A player's view where the player's record is the very object the earlier state had: the
    engine never changes a record it shares between states (a move copies what it reads:
    ``copying.Draft``), and a player's view is built from its record alone, so the
    earlier view is the one ``_player_view`` would build; the whole list when every player is
    kept. A part of the board (the builders below) where the keys of the state it is built from
    are equal in both states: it is built from them and the printed data alone. ``to_act``
    when it comes out equal. Unchanged parts then are the same objects in both
    versions' views: the delta compares them by identity, and nothing is built or freed for
    them. Views are never changed once built (every user copies what it changes)."""
    if earlier is None:
        return None
    before, view = earlier
    old, new = before.tree, state.tree
    shown = view.get("players_state") or []
    if len(old["ps"]) != len(new["ps"]) or len(shown) != len(new["ps"]):
        return None
    players = [shown[s] if new["ps"][s] is old["ps"][s] else None for s in range(len(new["ps"]))]

    def same(*keys: str) -> bool:
        return all(new[key] is old[key] or new[key] == old[key] for key in keys)

    return Kept(
        players,
        rondels=view["rondels"] if same("rondels") else None,
        councilors=view["councilors"] if same("councilors") else None,
        huts=view["huts"] if same("huts") else None,
        markers=view["markers"] if same("markers") else None,
        advisors=view["advisors"] if same("display", "b_stack") else None,
        nobility=view["nobility"] if same("nobility") else None,
        options=view["options"] if same("options") else None,
        event=view["event"] if same("event") else None,
        event_top=view["event_top"] if same("event_deck") else None,
        favor=view["favor"] if same("favor") else None,
        victoria=view["victoria"] if same("victoria") else None,
        players_state=shown if all(v is not None for v in players) else None,
        to_act=view["to_act"],
    )


# ---------------------------------------------------------------------------------------------
# The board's parts of a view, each built from the state keys ``kept_from`` compares.


def _rondels(st: St) -> dict[str, list[str]]:
    return {k: list(v) for k, v in st["rondels"].items()}


def _councilors(st: St) -> list[dict[str, str]]:
    return [dict(c) for c in st["councilors"]]


def _huts(st: St) -> dict[str, list[HutView]]:
    return {
        loc: [
            {"cost": dict(data.HUTS[loc][i]), "occupant": occ}
            for i, occ in enumerate(st["huts"][loc])
        ]
        for loc in data.COUNTRYSIDE
    }


def _markers(st: St) -> MarkersView:
    return {
        "gift": {r: _marker_view(st, "gift", r) for r in data.RESOURCES},
        "donation": {r: _marker_view(st, "donation", r) for r in data.RESOURCES},
        "stone": _marker_view(st, "stone"),
        "bread": _marker_view(st, "bread"),
    }


def _advisors(st: St) -> AdvisorsView:
    display = {loc: list(st["display"][loc]) for loc in data.TOWN}
    b_top = st["b_stack"][0] if st["b_stack"] else None
    costs: dict[str, dict[str, int]] = {}
    for loc in data.TOWN:
        for adv in display[loc]:
            costs[adv] = dict(data.ADVISOR_COST[adv])
    if b_top is not None:
        costs[b_top] = dict(data.ADVISOR_COST[b_top])
    return {"display": display, "b_top": b_top, "b_left": len(st["b_stack"]), "costs": costs}


def _options(st: St) -> OptionsView:
    return {
        "building_start": st["options"]["building_start"],
        "random_locations": st["options"]["random_locations"],
        "full_selection": st["options"]["full_selection"],
        "start_player": st["options"]["start_player"],
        "undo": bool(st["options"].get("undo", True)),
    }


def _event_top(st: St) -> EventCardView | None:
    return _event_view(st["event_deck"][0] if st["event_deck"] else None)


def _favor(st: St) -> FavorView:
    return {"pile": len(st["favor"]["pile"]), "discard": len(st["favor"]["discard"])}


def _victoria(st: St) -> VictoriaView | None:
    victoria = st["victoria"]
    if victoria is None:
        return None
    return {"cp": victoria["cp"], "titles": [{"id": t, "cp": cp} for t, cp in victoria["titles"]]}


def _nobility(st: St) -> list[NobilityView]:
    return [
        {
            "id": t,
            "cost": dict(data.TITLE_COST[t]),
            "top": st["nobility"][t][0] if st["nobility"][t] else None,
            "left": len(st["nobility"][t]),
        }
        for t in data.TITLES
    ]


def views_for(
    state: GameState, seats: list[int | None], earlier: tuple[GameState, View] | None = None
) -> dict[int | None, View]:
    """``view_for`` of each seat in ``seats``, equal to it seat by seat: what every seat sees
    alike (the board, every player's public state, the outcome) is built once and shared by the
    views; each seat adds its own ``me`` and ``turn`` (its undo points). ``earlier``: the state
    of an earlier version of the game and its public view (``kept_from``)."""
    st = state.tree
    public = view_for(state, None, kept_from(state, earlier))
    out: dict[int | None, View] = {}
    for seat in seats:
        if seat is None:
            out[seat] = public
            continue
        view = cast(View, dict(public))
        view["turn"] = _turn_view(st, seat)
        view["me"] = view_for_me(st, seat)
        out[seat] = view
    return out


def view_for_me(st: St, seat: int) -> MeView:
    n: int = st["players"]
    if not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} at this table")
    return {"seat": seat, "hand": list(st["ps"][seat]["hand"]), "decision": _decision_for(st, seat)}


_PUBLIC_FORM: dict[str, tuple[str, ...]] = {
    "favor_drawn": ("type", "seat", "count"),
    "cards_drawn": ("type", "seat", "count"),
}


def events_for(events: list[dict[str, Any]], seat: int | None) -> list[EngineEvent]:
    """The events one seat (or a spectator, ``None``) may see, in order."""
    out: list[dict[str, Any]] = []
    for ev in events:
        if "private" not in ev:
            out.append(dict(ev))
            continue
        if seat is not None and ev["private"] == seat:
            out.append({k: v for k, v in ev.items() if k != "private"})
            continue
        keys = _PUBLIC_FORM.get(ev["type"])
        if keys is not None:
            out.append({k: ev[k] for k in keys if k in ev})
    return cast(list[EngineEvent], out)
