"""Who may look at a table, as whom, and its lobby as they see it: the reads every lobby
operation starts from (``visible`` in an ORM session, ``visible_rows`` on a Core connection with
statements built once), the viewer, and the lobby view with names and presence.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from app.db.models import GameTable, Seat
from app.errors import Forbidden, NotFound
from app.pace.clock import ClockBlob
from app.pace.clock import public as public_clock
from app.presence import published as presence
from app.tables import lobby_repository as lobby_repo
from app.tables import repository as repo
from app.tables.answers import LobbyAnswer
from app.tables.removals import refuse_removed
from app.tables.render import lobby_view
from app.tables.types import SeatLike, TableLike, Viewer


def visible(
    s: Session,
    profile_id: str | None,
    table_id: str,
    invite_code: str | None,
    for_change: bool = False,
) -> tuple[GameTable, list[Seat]]:
    """The table and its seats, if the caller holds a seat or the invite code; else 404.
    ``for_change``: read with the seats' lock, as every act that changes the seats or judges by
    them does (``repository.table_for_change``)."""
    t = lobby_repo.table_for_change(s, table_id) if for_change else repo.table(s, table_id)
    if t is None:
        raise NotFound("no such table")
    seats = lobby_repo.seats(s, t.id)
    _judge_look(s, t, seats, profile_id, invite_code)
    return t, seats


def visible_rows(
    conn: Connection,
    profile_id: str | None,
    table_id: str,
    invite_code: str | None,
    for_change: bool = False,
) -> tuple[TableLike, list[SeatLike], dict[str, str]]:
    """``visible`` on a Core connection, with statements built once and no ORM — a read's
    (``Database.read``) or a transaction's (a join, ``for_change``: with the seats' lock): the
    table, its seats and its players' names, if the caller holds a seat or the invite code;
    else 404."""
    found = repo.lobby_table(conn, table_id, for_change)
    if found is None:
        raise NotFound("no such table")
    t, rows = found
    seats, names = seats_and_names(rows)
    _judge_look(conn, t, seats, profile_id, invite_code)
    return t, seats, names


def seats_and_names(rows: Sequence[Any]) -> tuple[list[SeatLike], dict[str, str]]:
    """``repository.lobby_seats``' rows as seats, and the names of the people on them."""
    names = {x.profile_id: x.name for x in rows if x.profile_id and x.name is not None}
    return list(rows), names


def _judge_look(
    conn: Session | Connection,
    t: TableLike,
    seats: Sequence[SeatLike],
    profile_id: str | None,
    invite_code: str | None,
) -> None:
    """Refuse a look the caller may not have: a person the host removed from the table
    (``removed_from_table``, whatever code they hold; app/tables/removals.py), anyone else
    with neither a seat nor the invite code (404, as if there were no such table). A seated
    caller costs no query more."""
    if profile_id is not None and not any(x.profile_id == profile_id for x in seats):
        refuse_removed(conn, t.id, profile_id)
    if not _may_look(t, seats, profile_id, invite_code):
        raise NotFound("no such table")


def _may_look(
    t: TableLike, seats: Sequence[SeatLike], profile_id: str | None, invite_code: str | None
) -> bool:
    seated = profile_id is not None and any(x.profile_id == profile_id for x in seats)
    # Compared as bytes: compare_digest refuses non-ASCII str (a 500 on a hostile code).
    return seated or bool(
        invite_code and secrets.compare_digest(invite_code.encode(), t.invite_code.encode())
    )


def viewer_of(t: TableLike, seats: Sequence[SeatLike], profile_id: str | None) -> Viewer:
    """Who ``profile_id`` is at a table it may see: its seat, else a spectator where the table
    allows them (else ``Forbidden``)."""
    seat = next((x.seat for x in seats if profile_id and x.profile_id == profile_id), None)
    if seat is None and not t.options.get("spectators", True):
        raise Forbidden("this table does not allow spectators")
    return Viewer(t.id, seat, profile_id)


def lobby_of(
    s: Session | Connection,
    t: TableLike,
    seats: Sequence[SeatLike],
    profile_id: str | None,
    names: dict[str, str] | None = None,
) -> LobbyAnswer:
    """The lobby view of a loaded table, with its players' names (read here unless given) and
    presence."""
    if names is None:
        names = lobby_repo.names(s, [x.profile_id for x in seats if x.profile_id])
    view = lobby_view(t, seats, names, profile_id)
    # Presence (app/presence): present now, last seen when away, per person's seat.
    held = [(x.seat, x.profile_id) for x in seats]
    here = {p["seat"]: p for p in presence.seat_list(s, t.id, held)}
    for seat in view["seats"]:
        p = here.get(seat["seat"])
        seat["present"] = bool(p and p["present"])
        seat["last_seen"] = p["last_seen"] if p else None
    # Pace: the running clock (deadlines per seat), for every viewer of the lobby.
    humans = {x.seat for x in seats if x.bot_level is None}
    view["clock"] = public_clock(cast(ClockBlob | None, t.clock), humans)
    return view
