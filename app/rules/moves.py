"""Moves as values: the ``Move`` type, the wire codec and the typed illegal-move error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .data import PAY_KEYS

if TYPE_CHECKING:
    from .state import GameState


class IllegalMoveError(Exception):
    """A move that the rules do not allow; ``code`` is a stable snake_case identifier."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code


@dataclass(frozen=True, slots=True)
class Move:
    """One move: its ``kind`` and its fields in wire form (JSON-ready values)."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)


# Field shapes of the wire form; "pay" is a {key: count} dict, "extra" a list of strings.
_FIELD_TYPES: dict[str, str] = {
    "card": "str",
    "slot": "int",
    "councilor": "str",
    "location": "str",
    "hut": "int",
    "pay": "pay",
    "advisor": "str",
    "hire": "str",
    "extra": "strlist",
    "resource": "str",
    "count": "int",
    "token": "int",
    "option": "str",
    "bread": "int",
    "take": "str",
    "give": "str",
    "from": "str",
    "to": "int",
}

# kind -> (required fields, optional fields)
KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "play_card": (frozenset({"card", "slot"}), frozenset()),
    "card_action": (
        frozenset(),
        frozenset({"pay", "councilor", "hire", "location", "hut", "advisor"}),
    ),
    "move": (frozenset({"councilor"}), frozenset()),
    "raise_title": (frozenset(), frozenset()),
    "hire_craftsman": (frozenset({"location", "hut", "pay"}), frozenset()),
    "hire_advisor": (frozenset({"advisor", "pay"}), frozenset()),
    "use_advisor": (frozenset({"advisor"}), frozenset({"bread", "pay", "take", "give"})),
    "end_turn": (frozenset(), frozenset()),
    "harvest": (frozenset({"extra"}), frozenset({"pay"})),
    "castle_gift": (frozenset({"resource", "pay"}), frozenset()),
    "castle_book": (frozenset(), frozenset()),
    "cathedral_donation": (frozenset({"resource", "pay"}), frozenset()),
    "deliver_stone": (frozenset({"pay"}), frozenset()),
    "deliver_bread": (frozenset({"count"}), frozenset()),
    "deliver_wood": (frozenset({"count", "pay"}), frozenset()),
    "market_gold": (frozenset({"pay"}), frozenset()),
    "market_books": (frozenset({"count"}), frozenset()),
    "cash_favor": (frozenset({"token"}), frozenset()),
    "end_visit": (frozenset(), frozenset()),
    "keep_favor": (frozenset({"token"}), frozenset()),
    "event_option": (frozenset({"option"}), frozenset({"pay"})),
    "decline": (frozenset(), frozenset()),
    "choose_resource": (frozenset({"resource"}), frozenset()),
    "place_councilor": (frozenset({"location"}), frozenset({"from"})),
    "undo": (frozenset({"to"}), frozenset()),
}

VISIT_KINDS: frozenset[str] = frozenset(
    {
        "harvest",
        "castle_gift",
        "castle_book",
        "cathedral_donation",
        "deliver_stone",
        "deliver_bread",
        "deliver_wood",
        "market_gold",
        "market_books",
        "cash_favor",
        "end_visit",
    }
)


def _check_value(kind: str, name: str, value: Any) -> Any:
    shape = _FIELD_TYPES[name]
    if shape == "str":
        if not isinstance(value, str):
            raise IllegalMoveError("malformed_move", f"{kind}.{name} must be a string")
        return value
    if shape == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalMoveError("malformed_move", f"{kind}.{name} must be an integer")
        return value
    if shape == "strlist":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise IllegalMoveError("malformed_move", f"{kind}.{name} must be a list of strings")
        return list(value)
    # pay
    if not isinstance(value, Mapping):
        raise IllegalMoveError("malformed_move", f"{kind}.pay must be an object")
    out: dict[str, int] = {}
    for key, count in value.items():
        if key not in PAY_KEYS:
            raise IllegalMoveError("malformed_move", f"{kind}.pay has unknown key {key!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise IllegalMoveError("malformed_move", f"{kind}.pay.{key} must be a count >= 0")
        if count:
            out[key] = count
    return {k: out[k] for k in PAY_KEYS if k in out}


def decode_move(data: Move | Mapping[str, Any]) -> Move:
    """Validate the wire form of a move and return it as a ``Move``."""
    if isinstance(data, Move):
        data = encode_move(data)
    if not isinstance(data, Mapping):
        raise IllegalMoveError("malformed_move", "a move must be an object")
    kind = data.get("kind")
    if not isinstance(kind, str):
        raise IllegalMoveError("malformed_move", "a move needs a string 'kind'")
    if kind not in KINDS:
        raise IllegalMoveError("unknown_kind", f"unknown move kind {kind!r}")
    required, optional = KINDS[kind]
    args: dict[str, Any] = {}
    for name, value in data.items():
        if name == "kind":
            continue
        if name not in required and name not in optional:
            raise IllegalMoveError("malformed_move", f"{kind} has no field {name!r}")
        args[name] = _check_value(kind, name, value)
    missing = required - args.keys()
    if missing:
        raise IllegalMoveError("malformed_move", f"{kind} needs {', '.join(sorted(missing))}")
    return Move(kind, args)


def encode_move(move: Move) -> dict[str, Any]:
    """The JSON wire form of a move."""
    out: dict[str, Any] = {"kind": move.kind}
    for name, value in move.args.items():
        if isinstance(value, Mapping):
            out[name] = dict(value)
        elif isinstance(value, list | tuple):
            out[name] = list(value)
        else:
            out[name] = value
    return out


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of ``apply_move``: the new state, the events that happened, and the move as
    the log stores it (``encode_move`` of the move judged: its canonical form)."""

    state: GameState
    events: list[dict[str, Any]]
    move: dict[str, Any]
