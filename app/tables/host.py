"""The host's acts on the people at their table: remove a person from the lobby, hand the host
role to another seat.

Both are judged in the database like every seat change (app/tables/lobby.py): the table is read
with the seats' lock first, so on any number of instances they run one after another with the
joins, leaves and starts, each judging the seats the last one left. Who may, at that moment:

- removal: the table's current host, in the lobby (before the start), of a seat a person holds
  (not their own: they leave instead; not a bot's: the host frees that as a bot). The seat is
  freed (``seats_version`` advances), and the person is remembered as removed: they cannot join
  again with the link, nor look at the table, until the host invites them again
  (app/tables/removals.py);
- hand-over: the table's current host, in the lobby or during the game, to a seat another
  person holds (a seat a bot plays for its person counts: the person is still seated).

Each commits, then publishes the table's lobby notice: every socket of the table, on every
instance, reads the lobby again; the removed person's sockets are told ``removed_from_table``
and close (app/realtime/socket.py), the others see the seat free or the new host.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from anyio import to_thread
from sqlalchemy.orm import Session

from app.db.models import GameTable, Seat, utcnow
from app.db.session import Database
from app.errors import AppError, NotFound, NotHost, WrongStatus
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import lobby_repository as lobby_repo
from app.tables import removals
from app.tables.answers import LobbyAnswer
from app.tables.locks import KeyedLocks
from app.tables.status import TableStatus
from app.tables.visibility import lobby_of, visible

T = TypeVar("T")


class OwnSeat(AppError):
    """The host named their own seat (to leave, they leave; the host already holds the role)."""

    status = 409
    code = "own_seat"


class NotAPerson(AppError):
    """Nobody sits at the seat, or a bot of its own does (no person to remove or hand to)."""

    status = 409
    code = "not_a_person"


def _hosted(t: GameTable, host_id: str, open_in: tuple[TableStatus, ...], why: str) -> None:
    """The caller is the table's host now, and the table is in a status the act is open in."""
    if t.host_profile_id != host_id:
        raise NotHost("only the host can do this")
    if t.status not in open_in:
        raise WrongStatus(why)


def _person_at(t: GameTable, seats: list[Seat], host_id: str, seat: int, own: str) -> Seat:
    """The person's seat the host named."""
    if not 0 <= seat < t.seat_count:
        raise NotFound("no such seat")
    x = next((x for x in seats if x.seat == seat), None)
    if x is None or x.profile_id is None:
        raise NotAPerson("no person sits at this seat")
    if x.profile_id == host_id:
        raise OwnSeat(own)
    return x


class HostActs:
    def __init__(self, db: Database, hub: Hub, locks: KeyedLocks) -> None:
        self.db = db
        self.hub = hub
        self.locks = locks

    async def _act(self, table_id: str, work: Callable[[Session], T]) -> T:
        def in_session() -> T:
            with self.db.session() as s:
                return work(s)

        async with self.locks[table_id]:
            out = await to_thread.run_sync(in_session)
        self.hub.publish(Notice(table_id, NoticeKind.LOBBY))
        return out

    async def remove(self, host_id: str, table_id: str, seat: int) -> LobbyAnswer:
        """The host removes the person at ``seat`` from the lobby; the lobby after it."""
        return await self._act(table_id, lambda s: self._remove(s, host_id, table_id, seat))

    def _remove(self, s: Session, host_id: str, table_id: str, seat: int) -> LobbyAnswer:
        t, seats = visible(s, host_id, table_id, None, for_change=True)
        _hosted(t, host_id, (TableStatus.LOBBY,), "a person is removed only before the start")
        x = _person_at(t, seats, host_id, seat, "to leave the table, leave it")
        assert x.profile_id is not None
        at = utcnow()
        removals.remember(s, t.id, x.profile_id, at)
        s.delete(x)
        t.updated_at = at
        s.flush()
        lobby_repo.bump_seats(s, t.id)
        return lobby_of(s, t, [y for y in seats if y is not x], host_id)

    async def hand_over(self, host_id: str, table_id: str, seat: int) -> LobbyAnswer:
        """The host hands the host role to the person at ``seat``; the lobby after it."""
        return await self._act(table_id, lambda s: self._hand_over(s, host_id, table_id, seat))

    def _hand_over(self, s: Session, host_id: str, table_id: str, seat: int) -> LobbyAnswer:
        t, seats = visible(s, host_id, table_id, None, for_change=True)
        _hosted(t, host_id, (TableStatus.LOBBY, TableStatus.PLAYING), "the table is not open")
        x = _person_at(t, seats, host_id, seat, "you are the host already")
        assert x.profile_id is not None
        t.host_profile_id = x.profile_id
        t.updated_at = utcnow()
        s.flush()
        return lobby_of(s, t, seats, host_id)
