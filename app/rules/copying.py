"""How a move copies the state tree: as far as the move may change it, and only what it reads.

``apply_move`` changes a ``Draft`` of the tree — each key copied the first time the move reads it
(``_copy_key``, as ``copy_for_seat`` copies every key), the rest shared with the input — so a
move never changes the position it starts from. ``copy_tree`` (a ``marshal`` round trip: fast and
exact for this shape) copies a whole tree.
"""

from __future__ import annotations

import marshal
from typing import Any

from .breakdown import copy_points
from .state import St


def copy_tree(tree: St) -> St:
    out: St = marshal.loads(marshal.dumps(tree))
    return out


def _copy_player(p: St) -> St:
    out = dict(p)
    out["res"] = dict(p["res"])
    out["goods"] = dict(p["goods"])
    out["craftsmen"] = [list(c) for c in p["craftsmen"]]
    out["advisors"] = list(p["advisors"])
    out["titles"] = [list(t) for t in p["titles"]]
    out["favor"] = list(p["favor"])
    out["slots"] = list(p["slots"])
    out["hand"] = list(p["hand"])
    out["deck"] = list(p["deck"])
    out["played"] = list(p["played"])
    if "points" in p:
        out["points"] = copy_points(p["points"])
    return out


def _copy_any(value: Any) -> Any:
    if type(value) is dict:
        return {k: _copy_any(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy_any(v) for v in value]
    return value


def _copy_turn(turn: St | None) -> St | None:
    if turn is None:
        return None
    out = dict(turn)
    out["bonus_used"] = dict(turn["bonus_used"])
    out["advisors_used"] = list(turn["advisors_used"])
    visit = turn["visit"]
    if visit is not None:
        out["visit"] = {
            "location": visit["location"],
            "via": visit["via"],
            "done": list(visit["done"]),
            "fresh": list(visit["fresh"]),
        }
    return out


_PLAIN_LISTS = ("boxed_advisors", "b_stack", "event_deck")
_DICT_OF_LISTS = ("huts", "display", "nobility")


def copy_for_seat(tree: St, seat: int | None) -> St:
    """A copy that may be changed freely in the board and in ``seat``'s own player record.

    With ``seat=None`` every player record is copied. Otherwise the other seats' records are
    shared with ``tree`` (moves of one seat that cannot end a turn change no other record).
    The rondels and options never change after set-up and are always shared, and so is the
    undo bookkeeping (``undo.note_move`` replaces it, never changes it). The copy is
    written out per key of the state tree (``_copy_key``); keys it does not know are
    deep-copied.
    """
    return {key: _copy_key(key, value, seat) for key, value in tree.items()}


def _copy_key(key: str, value: Any, seat: int | None) -> Any:
    """One key of the state tree copied as far as a move may change it (``copy_for_seat``)."""
    if key == "ps":
        if seat is None:
            return [_copy_player(p) for p in value]
        new_ps = list(value)
        new_ps[seat] = _copy_player(value[seat])
        return new_ps
    if key in _SHARED:
        return value
    if key in _PLAIN_LISTS:
        return list(value)
    if key in _DICT_OF_LISTS:
        return {k: list(v) for k, v in value.items()}
    if key == "turn":
        return _copy_turn(value)
    if key == "markers":
        return {
            "gift": {r: list(v) for r, v in value["gift"].items()},
            "donation": {r: list(v) for r, v in value["donation"].items()},
            "stone": list(value["stone"]),
            "bread": list(value["bread"]),
        }
    if key == "councilors":
        return [dict(c) for c in value]
    if key == "favor":
        return {"pile": list(value["pile"]), "discard": list(value["discard"])}
    if key == "rng":
        return dict(value)
    if type(value) is dict or type(value) is list:
        return _copy_any(value)
    return value


_SHARED = frozenset({"rondels", "options", "undo"})


class Draft(dict[str, Any]):
    """The tree a move changes, copied as the move reaches it: the first time a key is read
    (``draft[key]``) its value is copied from the source as ``copy_for_seat`` copies it, and
    from then on the move changes that copy. A key the move never reads stays the very object
    the source holds — nothing is built for it, and the next version's view lends its part and
    the delta skips it by identity (app/rules/view.py ``kept_from``).

    Rule code reaches the tree only by ``draft[key]`` (and ``in``, ``del``, assignment): a
    value obtained any other way (``get``, ``items``, ``values``, ``pop``) may be the source's
    and is only ever read. ``tree()`` is the plain dictionary the new state holds.
    """

    __slots__ = ("_copied", "_seat")

    def __init__(self, source: St, seat: int | None) -> None:
        super().__init__(source)
        self._seat = seat
        self._copied: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        if key in self._copied:
            return value
        value = _copy_key(key, value, self._seat)
        dict.__setitem__(self, key, value)
        self._copied.add(key)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        self._copied.add(key)
        dict.__setitem__(self, key, value)

    def tree(self) -> St:
        return dict(self)
