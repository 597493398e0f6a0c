"""What a table and a game look like to one caller: pure functions over loaded rows."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Protocol, cast

from app import rules
from app.isotime import iso
from app.tables.answers import GameRender, LobbyAnswer, LobbySeatLine, LogLineOut, ScoreLine
from app.tables.options import options_of
from app.tables.status import TableStatus
from app.tables.types import LogRow, SeatLike, TableLike


class LogLine(Protocol):
    """Anything with the move log's fields: an ORM row, a Core row, a ``LogRow``."""

    @property
    def version(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def move(self) -> Any: ...
    @property
    def events(self) -> Any: ...
    @property
    def created_at(self) -> datetime: ...


def scores_of(view: rules.View) -> list[ScoreLine]:
    """Both tracks of every player (and Victoria in solo), from a view: once the game is over,
    the final tracks of the engine's outcome (leftover goods counted)."""
    outcome = view.get("outcome")
    final = {p["seat"]: p for p in outcome["players"]} if outcome else {}
    out: list[ScoreLine] = []
    for p in view.get("players_state") or []:
        src: Any = final.get(p["seat"], p)
        out.append({"seat": p["seat"], "cp": src["cp"], "bp": src["bp"], "score": src["score"]})
    victoria = view.get("victoria")
    if victoria:
        out.append({"seat": None, "victoria": True, "cp": victoria.get("cp")})
    return out


def render(state: Any, version: int, seat: int | None) -> GameRender:
    """The game at ``version`` for ``seat`` (None: a spectator)."""
    view = rules.view_for(state, seat)
    legal: list[rules.EncodedMove] = []
    if seat is not None:
        legal = [
            cast(rules.EncodedMove, rules.encode_move(m)) for m in rules.legal_moves(state, seat)
        ]
    return {
        "version": version,
        "seat": seat,
        "view": view,
        "legal_moves": legal,
        "scores": scores_of(view),
    }


def render_all(
    state: Any,
    version: int,
    seats: list[int | None],
    earlier: tuple[Any, rules.View] | None = None,
) -> dict[int | None, GameRender]:
    """``render`` of each seat in ``seats`` (None: a spectator), the views built together
    (``rules.views_for``: what every seat sees alike is built once). ``earlier``: an earlier
    state of the game and its public view, whose unchanged parts the views reuse."""
    views = rules.views_for(state, seats, earlier)
    out: dict[int | None, GameRender] = {}
    scores: list[ScoreLine] | None = None
    for seat in seats:
        view = views[seat]
        legal: list[rules.EncodedMove] = []
        if seat is not None:
            legal = [
                cast(rules.EncodedMove, rules.encode_move(m))
                for m in rules.legal_moves(state, seat)
            ]
        if scores is None:
            scores = scores_of(view)  # the same for every seat
        out[seat] = {
            "version": version,
            "seat": seat,
            "view": view,
            "legal_moves": legal,
            "scores": scores,
        }
    return out


def log_entry(r: LogLine, seat: int | None) -> LogLineOut:
    """A log line redacted for ``seat``."""
    return {
        "version": r.version,
        "seat": r.seat,
        "move": r.move,
        "events": rules.events_for(r.events, seat),
        "at": r.at if isinstance(r, LogRow) else iso(r.created_at),
    }


def lobby_view(
    t: TableLike, seats: Iterable[SeatLike], names: dict[str, str], profile_id: str | None
) -> LobbyAnswer:
    """The lobby of a table for ``profile_id`` (the invite code only to its seats)."""
    seats = list(seats)
    by_seat = {x.seat: x for x in seats}
    seat_list: list[LobbySeatLine] = []
    for n in range(t.seat_count):
        x = by_seat.get(n)
        seat_list.append(
            {
                "seat": n,
                "taken": x is not None,
                "name": names.get(x.profile_id) if x and x.profile_id else None,
                "bot_level": x.bot_level if x else None,
                "host": bool(x and x.profile_id == t.host_profile_id),
                "you": bool(x and profile_id is not None and x.profile_id == profile_id),
            }
        )
    my_seat = next((x.seat for x in seats if profile_id and x.profile_id == profile_id), None)
    outcome = None
    to_act: list[int] = []
    # (the row's state is looked at, never changed: no copy)
    if t.status == TableStatus.FINISHED and t.state is not None:
        outcome = rules.outcome(rules.read_state(t.state))
    elif t.status == TableStatus.PLAYING and t.state is not None:
        to_act = rules.to_act(rules.read_state(t.state))
    return {
        "id": t.id,
        "invite_code": t.invite_code if my_seat is not None else None,
        "status": t.status,
        "seats": seat_list,
        "seat_count": t.seat_count,
        "options": options_of(t),
        "host": my_seat is not None and t.host_profile_id == profile_id,
        "my_seat": my_seat,
        "version": t.version,
        "outcome": outcome,
        # whose move it is now (seats; empty unless the game runs): "My tables" says so
        "to_act": to_act,
        "created_at": iso(t.created_at),
        # Play again: the host's name for the table, and its rematch table once there is one.
        "name": t.name,
        "rematch_id": t.rematch_id if my_seat is not None else None,
    }
