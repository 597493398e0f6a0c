"""What a newcomer should do next, and why: a pure function of one seat's view and legal moves.

``hint_for(view, legal)`` reads only what the seat's screen already has (``rules.view_for`` and
``legal_moves`` in wire form) and names one next step of the game — play a card, its card action,
move a councilor, the visit's action, a bonus action, end the turn, the end of the round — with
the move it suggests and the screen elements to point at. Nothing is remembered between calls:
when the player does something else than suggested, the next call reads the new state.

The hints lead through every kind of decision of a first game: the walk goes where the player's
goods can be used (stone, bread and wood to the construction site, books to the market, resources
to the castle and cathedral for rings and books), gold and rings go into titles first, and an
end-of-round event's offer is taken. Each kind has its own words, which explain it.

Targets are element names the client resolves (static/js/guide.js): ``move`` (the button of the
suggested move), ``loc:<location>``, ``card:<card>``, ``councilor:<seat>:<rondel>``,
``hut:<location>:<index>``, ``nobility:<title>``, ``advisor:<advisor>``, ``end-turn``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

GUIDED_ROUNDS = 6  # the hints cover the whole game, then let go


class Step(StrEnum):
    WAIT = "wait"  # another seat is to act
    PLAY_CARD = "play_card"
    CARD_ACTION = "card_action"
    MOVE = "move"
    VISIT = "visit"
    KEEP_FAVOR = "keep_favor"
    BONUS = "bonus"
    END_TURN = "end_turn"
    EVENT_OPTION = "event_option"
    ROUND_END = "round_end"  # the seat's cards are played: the round ends after the others
    DONE = "done"  # the game is over: the hints let go
    FREE = "free"  # nothing to explain (any legal move will do)


# Visit actions in the order a newcomer is pointed at them (the first legal one wins).
VISIT_ORDER = (
    "harvest",
    "deliver_stone",
    "deliver_bread",
    "deliver_wood",
    "castle_gift",
    "cathedral_donation",
    "market_books",
    "castle_book",
    "market_gold",
    "cash_favor",
)
BONUS_ORDER = ("raise_title", "hire_craftsman", "hire_advisor")
# Visit actions with words of their own (the others are worded by their location).
OWN_WORDS = (
    "deliver_stone", "deliver_bread", "deliver_wood", "market_books", "castle_book",
    "castle_gift", "cathedral_donation",
)  # fmt: skip
# Rules page anchors (the /rules page) per step; a visit names its location's own section, a
# delivery the deliveries, a bonus action its kind's.
RULES_ANCHOR: dict[Step, str] = {
    Step.PLAY_CARD: "turn",
    Step.CARD_ACTION: "turn",
    Step.MOVE: "locations",
    Step.VISIT: "locations",
    Step.KEEP_FAVOR: "favor-tokens",
    Step.BONUS: "craftsmen",
    Step.END_TURN: "turn",
    Step.EVENT_OPTION: "events",
    Step.ROUND_END: "round-end",
    Step.DONE: "scoring",
}

Move = Mapping[str, Any]
COUNCILORS = ("countryside", "town")


@dataclass(frozen=True)
class Hint:
    step: Step
    key: str  # catalogue key of the words, under ``guide.``
    params: dict[str, str | int] = field(default_factory=dict)
    targets: tuple[str, ...] = ()
    move: dict[str, Any] | None = None  # the suggested move, exactly as listed in legal moves
    rules: str | None = None  # anchor of the /rules page that says more
    turn: int | None = None  # the seat's turn of the round (1-3) the hint belongs to


def _hint(
    step: Step,
    key: str,
    params: dict[str, str | int] | None = None,
    targets: Sequence[str] = (),
    move: Move | None = None,
    turn: int | None = None,
    rules: str | None = None,
) -> Hint:
    return Hint(
        step=step,
        key="guide." + key,
        params=params or {},
        targets=tuple(targets),
        move=dict(move) if move is not None else None,
        rules=rules or RULES_ANCHOR.get(step),
        turn=turn,
    )


def _cost(move: Move) -> int:
    pay = move.get("pay")
    return sum(int(v) for v in pay.values()) if isinstance(pay, Mapping) else 0


def _cheapest(moves: Sequence[Move]) -> Move:
    """The move that pays least (the first of equals: the server's order)."""
    return min(moves, key=_cost)


def _of(legal: Sequence[Move], kind: str) -> list[Move]:
    return [m for m in legal if m.get("kind") == kind]


def destination(view: Mapping[str, Any], seat: int, councilor: str, steps: int) -> str | None:
    order = (view.get("rondels") or {}).get(councilor)
    councilors = view.get("councilors") or []
    here = councilors[seat].get(councilor) if seat < len(councilors) else None
    if not order or here not in order or not steps:
        return None
    return str(order[(order.index(here) + steps) % len(order)])


def hint_for(view: Mapping[str, Any], legal: Sequence[Move]) -> Hint:
    """The next step for the seat whose view this is (``view["me"]`` must be set)."""
    me = view.get("me")
    if not me:
        raise ValueError("a hint needs a seat's view")
    seat = int(me["seat"])
    phase = view.get("phase")
    rnd = int(view.get("round") or 0)
    if phase == "finished" or rnd > GUIDED_ROUNDS:
        return _hint(Step.DONE, "done")
    decision = me.get("decision") or {}
    to_act = list(view.get("to_act") or [])
    mine = seat in to_act and len(legal) > 0
    if phase == "end_of_round":
        if mine and decision.get("kind") == "event_option":
            return _event_option(decision, legal)
        return _hint(Step.ROUND_END, "round_end" if rnd <= 1 else "round_end_later")
    turn = view.get("turn") or {}
    if not mine:
        player = (view.get("players_state") or [{}] * (seat + 1))[seat]
        if phase == "turns" and int(player.get("turns_taken") or 0) >= 3:
            return _hint(Step.ROUND_END, "round_end" if rnd <= 1 else "round_end_later")
        return _hint(Step.WAIT, "wait", {"seat": int(to_act[0]) if to_act else -1})
    number = int(turn.get("number") or 0) or None
    if decision.get("kind") == "keep_favor":
        keep = _of(legal, "keep_favor")
        if keep:
            return _hint(Step.KEEP_FAVOR, "keep_favor", targets=["move"], move=keep[0], turn=number)
    if turn.get("seat") != seat:
        return _hint(Step.FREE, "free", turn=number)
    plays = _of(legal, "play_card")
    if turn.get("card") is None and plays:
        return _play_card(view, me, plays, number)
    visit = turn.get("visit")
    if visit:
        found = _visit(view, visit, legal, number)
        if found is not None:
            return found
    if not turn.get("card_action_done"):
        actions = _of(legal, "card_action")
        if actions:
            card = str(turn.get("card"))
            pick = _cheapest(actions)
            targets = ["move", f"player:{seat}:slot:{turn.get('slot')}"]
            return _hint(
                Step.CARD_ACTION, "card_action." + _card_family(card), {"card": card},
                targets, pick, number,
            )  # fmt: skip
    if not turn.get("moved"):
        moves = _of(legal, "move")
        if moves:
            return _move(view, seat, turn, moves, number)
    bonus = [m for kind in BONUS_ORDER for m in _of(legal, kind)]
    if bonus:
        kind = str(bonus[0]["kind"])
        pick = _cheapest([m for m in bonus if m["kind"] == kind])
        params: dict[str, str | int] = {}
        targets = ["move"]
        if kind == "hire_craftsman":
            params = {"location": str(pick["location"])}
            targets.append(f"hut:{pick['location']}:{pick['hut']}")
        elif kind == "hire_advisor":
            params = {"advisor": str(pick["advisor"])}
            targets.append(f"advisor:{pick['advisor']}")
        elif kind == "raise_title":
            title = _next_title(view, seat)
            if title:
                params = {"title": title}
                targets.append(f"nobility:{title}")
        anchor = {"hire_craftsman": "craftsmen", "raise_title": "titles"}.get(kind, "advisors")
        return _hint(Step.BONUS, "bonus." + kind, params, targets, pick, number, anchor)
    ends = _of(legal, "end_turn")
    if ends:
        key = "end_turn_last" if number == 3 else "end_turn"
        return _hint(Step.END_TURN, key, {"turn": number or 0}, ["end-turn"], ends[0], number)
    return _hint(Step.FREE, "free", turn=number)


def _card_family(card: str) -> str:
    if card.startswith("take_"):
        return "take"
    return card if card in ("gold", "move1", "hire_discount", "town_action") else "take"


def _play_card(
    view: Mapping[str, Any], me: Mapping[str, Any], plays: Sequence[Move], number: int | None
) -> Hint:
    """The slot whose steps take a councilor where the most can be done (`_worth`), the first
    card of the hand on it; between equals the lowest free slot."""
    hand = list(me.get("hand") or [])
    rank = {c: i for i, c in enumerate(hand)}
    seat = int(me["seat"])

    def reach(slot: int) -> int:
        return max(_worth(view, seat, destination(view, seat, c, slot)) for c in COUNCILORS)

    pick = min(
        plays,
        key=lambda m: (
            -reach(int(m.get("slot") or 0)),
            rank.get(str(m.get("card")), 99),
            int(m.get("slot") or 0),
        ),
    )
    first = int(view.get("round") or 0) <= 1 and number in (None, 1)
    key = "play_card_first" if first else ("play_card_round" if number == 1 else "play_card")
    params: dict[str, str | int] = {"card": str(pick["card"]), "slot": int(pick["slot"])}
    return _hint(Step.PLAY_CARD, key, params, ["move", f"card:{pick['card']}"], pick, number)


def _worth(view: Mapping[str, Any], seat: int, location: str | None) -> int:
    """How much a newcomer learns and gains by walking to `location` with what they hold: a
    town location where their goods can be used beats the countryside (whose harvest always
    pays), which beats a town location where nothing can be done."""
    players = view.get("players_state") or []
    me = players[seat] if seat < len(players) else {}
    res: Mapping[str, int] = me.get("resources") or {}
    goods: Mapping[str, int] = me.get("goods") or {}
    gold = int(goods.get("gold") or 0)
    if location == "market":
        return 6 if goods.get("book") else (2 if sum(res.values()) else 0)
    if location == "construction_site":
        return 7 if res.get("stone") or res.get("wood") or goods.get("bread") else 0
    if location in ("castle", "cathedral"):
        kind = "gift" if location == "castle" else "donation"
        markers = (view.get("markers") or {}).get(kind) or {}
        cheapest = min(
            (int(m.get("value") or 0) for m in markers.values() if isinstance(m, Mapping)),
            default=99,
        )
        return 3 if max(res.values(), default=0) + gold >= cheapest else 0
    return 1 if location else 0


def _move(
    view: Mapping[str, Any],
    seat: int,
    turn: Mapping[str, Any],
    moves: Sequence[Move],
    number: int | None,
) -> Hint:
    """Where the player's goods can be used (`_worth`); between equals, turn 2 goes to town and
    the others to the countryside."""
    steps = int(turn.get("slot") or 0)
    wanted = "town" if number == 2 else "countryside"

    def rank(m: Move) -> tuple[int, int]:
        dest = destination(view, seat, str(m.get("councilor")), steps)
        return (_worth(view, seat, dest), 1 if m.get("councilor") == wanted else 0)

    pick = max(moves, key=rank)
    councilor = str(pick["councilor"])
    dest = destination(view, seat, councilor, steps)
    targets = ["move", f"councilor:{seat}:{councilor}"] + ([f"loc:{dest}"] if dest else [])
    params: dict[str, str | int] = {"councilor": councilor, "steps": steps, "location": dest or ""}
    return _hint(Step.MOVE, "move", params, targets, pick, number)


def _visit(
    view: Mapping[str, Any], visit: Mapping[str, Any], legal: Sequence[Move], number: int | None
) -> Hint | None:
    location = str(visit.get("location"))
    for kind in VISIT_ORDER:
        options = _of(legal, kind)
        if not options:
            continue
        pick = options[0] if kind == "harvest" else _cheapest(options)
        if kind == "harvest":  # more of the resource beats bread for a newcomer
            pick = min(options, key=lambda m: list(m.get("extra") or []).count("bread"))
        params: dict[str, str | int] = {"location": location, "action": kind}
        targets = ["move", f"loc:{location}"]
        anchor = "deliveries" if kind.startswith("deliver_") else location
        key = "visit." + (kind if kind in OWN_WORDS else location)
        return _hint(Step.VISIT, key, params, targets, pick, number, anchor)
    return None


def _next_title(view: Mapping[str, Any], seat: int) -> str | None:
    players = view.get("players_state") or []
    have = (
        {t.get("id") for t in (players[seat].get("titles") or [])} if seat < len(players) else set()
    )
    for n in view.get("nobility") or []:
        if n.get("id") not in have:
            return str(n["id"])
    return None


def _event_option(decision: Mapping[str, Any], legal: Sequence[Move]) -> Hint:
    options = _of(legal, "event_option")
    pick = _cheapest(options) if options else next(iter(_of(legal, "decline")), None)
    event = str(decision.get("event") or "")
    key = "event_option" if options else "event_decline"
    return _hint(Step.EVENT_OPTION, key, {"event": event}, ["move"], pick)
