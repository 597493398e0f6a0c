"""The 14 events: revealed at the start of a round, active for the round, or resolved at its end.

Timing: the round's event is revealed before the first turn (``reveal`` events pay out at once),
``round`` events modify play for that round (see ``state.event_effect``) and ``end_of_round``
events give each player, in turn order from the statue holder, one ``event_option`` or
``decline`` decision. Victoria (solo) is never affected by events.
"""

from __future__ import annotations

from typing import Any

from . import data
from .moves import IllegalMoveError, Move
from .state import Ev, St, check_pay, gain_bp, gain_cp, gain_items, player, spend_items


def reveal_event(st: St, events: Ev) -> None:
    """Box the top event card; the new top card is this round's event."""
    boxed = st["event_deck"].pop(0)
    event = st["event_deck"][0]
    st["event"] = event
    events.append(
        {
            "type": "event_revealed",
            "round": st["round"],
            "event": event,
            "timing": data.EVENT_TIMING[event],
            "boxed": boxed,
        }
    )
    gain = data.EVENT_EFFECT[event].get("gain")
    if gain:
        for seat in range(st["players"]):
            gain_items(st, seat, gain, "event", events)


def _options(event: str) -> dict[str, dict[str, Any]]:
    opts: dict[str, dict[str, Any]] = data.EVENT_EFFECT[event].get("options", {})
    return opts


def has_end_of_round_choice(event: str | None) -> bool:
    return event is not None and bool(_options(event))


def legal_event_options(st: St, seat: int) -> list[dict[str, Any]]:
    from .state import pays_for

    event = st["event"]
    p = player(st, seat)
    out: list[dict[str, Any]] = []
    for name, opt in _options(event).items():
        if "pay" in opt:
            for pay in pays_for(p, opt["pay"]):
                out.append({"kind": "event_option", "option": name, "pay": pay})
        elif all(p["goods"][k] >= n for k, n in opt["spend"].items()):
            out.append({"kind": "event_option", "option": name})
    return out


def apply_event_option(st: St, seat: int, move: Move, events: Ev) -> None:
    event = st["event"]
    name = move.args["option"]
    opts = _options(event)
    if name not in opts:
        raise IllegalMoveError("bad_option", f"{event} has no option {name!r}")
    opt = opts[name]
    p = player(st, seat)
    if "pay" in opt:
        if "pay" not in move.args:
            raise IllegalMoveError("malformed_move", f"option {name} needs pay")
        pay = check_pay(p, move.args["pay"], opt["pay"])
        spend_items(st, seat, pay, "event", events)
    else:
        if "pay" in move.args:
            raise IllegalMoveError("malformed_move", f"option {name} takes no pay")
        spend_items(st, seat, opt["spend"], "event", events)
    events.append({"type": "event_option_chosen", "seat": seat, "event": event, "option": name})
    if opt.get("cp"):
        gain_cp(st, seat, opt["cp"], "event", events)
    if opt.get("bp"):
        gain_bp(st, seat, opt["bp"], "event", events)
