"""Set-up of a new game for 1 to 4 players, both variants and the solo game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from . import data
from .breakdown import start_points
from .state import Ev, GameState, St, gain_items, pick_index, shuffle
from .turn import draw_hand, start_round

SCHEMA = 1


class BadOptionsError(ValueError):
    """Table options the engine cannot start a game with."""

    code = "bad_options"


@dataclass(frozen=True, slots=True)
class GameOptions:
    players: int = 2
    start_player: int | None = None
    building_start: int | None = None
    random_locations: bool = False
    full_selection: bool = False
    undo: bool = True


def normalise_options(options: Mapping[str, Any] | GameOptions | None) -> GameOptions:
    if options is None:
        return GameOptions()
    if isinstance(options, GameOptions):
        raw: dict[str, Any] = asdict(options)
    elif isinstance(options, Mapping):
        raw = dict(options)
    else:
        raise BadOptionsError("options must be a mapping or GameOptions")
    known = {
        "players",
        "start_player",
        "building_start",
        "random_locations",
        "full_selection",
        "undo",
    }
    unknown = set(raw) - known
    if unknown:
        raise BadOptionsError(f"unknown options: {sorted(unknown)}")
    players = raw.get("players", 2)
    lo, hi = data.MIN_PLAYERS, data.MAX_PLAYERS
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise BadOptionsError(f"players must be {lo} to {hi}")
    start = raw.get("start_player")
    if start is not None and (
        isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < players
    ):
        raise BadOptionsError("start_player must be a seat or null")
    bstart = raw.get("building_start")
    if bstart is not None and (
        isinstance(bstart, bool) or not isinstance(bstart, int) or not 0 <= bstart <= 200
    ):
        raise BadOptionsError("building_start must be an integer 0..200 or null")
    for flag in ("random_locations", "full_selection", "undo"):
        if not isinstance(raw.get(flag, flag == "undo"), bool):
            raise BadOptionsError(f"{flag} must be a boolean")
    return GameOptions(
        players=players,
        start_player=start,
        building_start=bstart,
        random_locations=bool(raw.get("random_locations", False)),
        full_selection=bool(raw.get("full_selection", False)),
        undo=bool(raw.get("undo", True)),
    )


def _marker_sides(players: int) -> dict[str, str]:
    if players == 1:
        sides: dict[str, str] = dict(data.MARKERS["solo_sides"])
        return sides
    side = "4" if players == data.MAX_PLAYERS else "2-3"
    return {"gift": side, "donation": side, "stone": side, "bread": side}


def _markers(players: int) -> St:
    sides = _marker_sides(players)
    solo_adv = set(data.MARKERS["solo_sides"]["solo_uses_two_player_advance_for"])
    out: St = {}
    for marker in ("gift", "donation"):
        spec = data.MARKERS[marker]
        advance = players == 2 or (players == 1 and marker in solo_adv)
        out[marker] = {}
        for r in data.RESOURCES:
            seq = list(spec[sides[marker]])
            if advance and r in spec["two_player_advanced"]:
                seq = seq[1:]
            out[marker][r] = seq
    for marker in ("stone", "bread"):
        spec = data.MARKERS[marker]
        seq = list(spec[sides[marker]])
        advance = players == 2 or (players == 1 and marker in solo_adv)
        if advance and spec["two_player_advanced"]:
            seq = seq[1:]
        out[marker] = seq
    return out


def new_game(seed: int, options: Mapping[str, Any] | GameOptions | None = None) -> GameState:
    """A new game; the first round starts at once unless set-up decisions are pending.

    ``options`` keys: ``players`` (1-4), ``start_player`` (a seat, or ``None``: drawn from the
    seed), ``building_start`` (``None``: the value on the top event card), ``random_locations``
    and ``full_selection`` (booleans), ``undo`` (boolean, default true: a player may take back
    moves of their own turn, see ``undo.py``).

    Random locations: the start player's councilors go to the countryside and town locations
    named by the top event card. When both lie on the same rondel, the start player moves one
    of them, of their choice, to any location of the other rondel (decision
    ``place_councilor``: ``location`` on the other rondel, and optionally ``from``, the named
    location the moving councilor leaves; by default the one on the town-named location moves
    and the countryside-named one stays). Every player then chooses the
    resource to take (decision ``choose_resource``, all seats at once); round 1 starts when
    the last choice is made.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadOptionsError("seed must be an integer")
    opts = normalise_options(options)
    n = opts.players
    st: St = {
        "schema": SCHEMA,
        "rng": {"seed": seed, "draws": 0},
        "players": n,
        "phase": "setup",
        "round": 0,
        "statue": 0,
        "turn_index": 0,
        "turn": None,
        "decision": None,
        "event": None,
    }
    if opts.random_locations:
        mixed = shuffle(st, list(data.LOCATIONS))
        half = len(data.COUNTRYSIDE)
        st["rondels"] = {"a": mixed[:half], "b": mixed[half:]}
    else:
        st["rondels"] = {
            "countryside": shuffle(st, list(data.COUNTRYSIDE)),
            "town": shuffle(st, list(data.TOWN)),
        }
    st["markers"] = _markers(n)
    st["huts"] = {loc: [None] * len(data.HUTS[loc]) for loc in data.COUNTRYSIDE}
    st["favor"] = {"pile": shuffle(st, list(range(len(data.FAVOR_TOKENS)))), "discard": []}
    a_order = shuffle(st, list(data.A_ADVISORS))
    k = data.ADVISORS_PER_TOWN_LOCATION
    st["display"] = {loc: a_order[k * i : k * i + k] for i, loc in enumerate(data.TOWN)}
    st["boxed_advisors"] = a_order[k * len(data.TOWN) :]
    st["b_stack"] = shuffle(st, list(data.B_ADVISORS))
    st["nobility"] = {t: list(data.TITLE_CARDS[t]) for t in data.TITLES}
    events_pool = [e for e in data.EVENT_IDS if not (n == 1 and e in data.EVENT_SOLO_REMOVED)]
    st["event_deck"] = shuffle(st, events_pool)
    top = st["event_deck"][0]
    c_start, t_start, b_start = data.EVENT_START[top]
    building = opts.building_start if opts.building_start is not None else b_start
    start = opts.start_player if opts.start_player is not None else pick_index(st, n)
    st["statue"] = start
    st["options"] = {
        "building_start": building,
        "random_locations": opts.random_locations,
        "full_selection": opts.full_selection,
        "start_player": start,
        "undo": opts.undo,
    }
    st["ps"] = []
    for _seat in range(n):
        st["ps"].append(
            {
                "cp": 0,
                "bp": building,
                "res": {r: 0 for r in data.RESOURCES},
                "goods": {g: 0 for g in data.GOODS},
                "craftsmen_left": len(data.CRAFTSMAN_CP),
                "craftsmen": [],
                "advisors": [],
                "titles": [],
                "favor": [],
                "slots": [None] * len(data.SLOTS),
                "hand": [],
                "deck": [] if opts.full_selection else shuffle(st, list(data.ACTION_CARDS)),
                "played": [],
                "turns_taken": 0,
                "points": start_points(building),
            }
        )
    st["victoria"] = {"cp": 0, "titles": []} if n == 1 else None
    events: Ev = []
    for seat in range(n):
        draw_hand(st, seat, events)
    st["councilors"] = [{} for _ in range(n)]
    if not opts.random_locations:
        st["councilors"][start] = {"countryside": c_start, "town": t_start}
        place_others(st, events)
        return GameState(st)
    ra = "a" if c_start in st["rondels"]["a"] else "b"
    rt = "a" if t_start in st["rondels"]["a"] else "b"
    if ra != rt:
        st["councilors"][start] = {ra: c_start, rt: t_start}
        place_others(st, events)
    else:
        other = "b" if ra == "a" else "a"
        st["councilors"][start] = {ra: c_start}
        st["decision"] = {
            "kind": "place_councilor",
            "seat": start,
            "councilor": other,
            "locations": list(st["rondels"][other]),
            "from": [t_start, c_start],
        }
    return GameState(st)


def place_others(st: St, events: Ev) -> None:
    """Each next player clockwise stands one location clockwise of the previous player."""
    n: int = st["players"]
    start: int = st["statue"]
    first = st["councilors"][start]
    keys = sorted(first, key=lambda k: list(st["rondels"]).index(k))
    st["councilors"][start] = {k: first[k] for k in keys}
    for k in range(1, n):
        seat = (start + k) % n
        st["councilors"][seat] = {}
        for key in keys:
            rondel: list[str] = st["rondels"][key]
            i = rondel.index(first[key])
            st["councilors"][seat][key] = rondel[(i + k) % len(rondel)]
    if st["options"]["random_locations"]:
        st["decision"] = {"kind": "choose_resource", "seats": list(range(n))}
        return
    for seat in range(n):
        loc = st["councilors"][seat]["countryside"]
        gain_items(
            st, seat, {data.COUNTRYSIDE[loc]: data.EFFECTS["setup_resource"]}, "setup", events
        )
    start_round(st, events)
