"""Play again: a rematch of a finished table, invitations from "People I play with", answers.

Who may do what, judged at the moment of the act:

- a rematch: a person seated at the finished table; the first asks, later asks get that table.
  It keeps the options and the name, seats the asker at their old seat and the table's own bots
  at theirs, and invites every other person to their old seat;
- an invitation: the host of a table still in its lobby, to someone they shared a table with
  (never a stranger), for a free seat, which stays theirs until they answer;
- accept or decline: only the invited person, once; accepting seats them (their seat, else a
  free one); declining frees the seat for a link or a bot;
- no more invitations from a profile (an invitation block): only the invited person; it declines
  every invitation of that inviter still waiting, and holds until they lift it. A person block
  (app/blocks) holds the same both ways, and more: app/invitations/blocking.py;
- accepting into a table whose host (or whose inviter) either person blocked: refused
  (``host_blocked`` to the one who blocked; to the other the invitation is gone, ``404``).

Mail and push are never a way to pester: a person is told of an invitation to a table once (the
same invitation asked again, or again after it was taken back, tells nobody); and an inviter
whose invitation was declined within ``quiet_seconds``, or who is blocked, is refused with the
same ``invitation_not_wanted`` (a block is never named to the inviter: it looks like the "no"
they were already shown). A rematch leaves such a person's seat free without inviting them.

Each change commits first, then the lobby notices (the table's seats and end screens, and My games
of everyone seated or invited through the My games feed), then the listeners (e-mail, push).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import TypeVar

from anyio import to_thread
from sqlalchemy.orm import Session

from app.blocks import checks
from app.clock import SYSTEM_CLOCK, Clock
from app.db.models import TableInvitation
from app.db.session import Database
from app.errors import NotFound, NotHost, NotYourSeat, WrongStatus
from app.invitations import repository as repo
from app.invitations.errors import (
    AlreadyAnswered,
    AlreadySeated,
    HostBlocked,
    NoFreeSeat,
    NotWanted,
)
from app.invitations.schemas import (
    BlockedPerson,
    InvitationKind,
    InvitationStatus,
    MyInvitation,
    Person,
    RematchOut,
    TableInvitationOut,
)
from app.profiles import suspension
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables import removals
from app.tables.answers import LobbyAnswer
from app.tables.lobby import free_seat, lobby_table, not_open, open_rematch, seat_person
from app.tables.locks import KeyedLocks
from app.tables.service import TableService
from app.tables.status import TableStatus
from app.tables.visibility import visible

log = logging.getLogger("emara.invitations")
T = TypeVar("T")


@dataclass(frozen=True)
class Invited:
    """A person was invited (after the commit): e-mail and push may tell them."""

    profile_id: str
    table_id: str
    kind: InvitationKind
    inviter_name: str
    table_name: str | None


@dataclass(frozen=True)
class _Invitation:
    invited: Invited
    tell: bool


class Invitations:
    def __init__(
        self,
        db: Database,
        hub: Hub,
        tables: TableService,
        clock: Clock = SYSTEM_CLOCK,
        quiet_seconds: float = 7 * 86400.0,
    ) -> None:
        self.db = db
        self.hub = hub
        self.tables = tables
        self.clock = clock
        self.quiet = timedelta(seconds=quiet_seconds)
        self.locks: KeyedLocks = tables.locks
        self.listeners: list[Callable[[Invited], None]] = []

    async def _run(self, work: Callable[[Session], T]) -> T:
        def in_session() -> T:
            with self.db.session() as s:
                return work(s)

        return await to_thread.run_sync(in_session)

    def _changed(self, *table_ids: str) -> None:
        for table_id in table_ids:
            self.hub.publish(Notice(table_id, NoticeKind.LOBBY))

    def _tell(self, invited: list[Invited]) -> None:
        for one in invited:
            for listener in self.listeners:
                try:
                    listener(one)
                except Exception:
                    log.exception("an invitation listener failed")

    # ------------------------------------------------------------------ people
    async def people(self, profile_id: str) -> list[Person]:
        return await self._run(lambda s: repo.people(s, profile_id))

    # ------------------------------------------------------------------ rematch
    async def rematch(self, profile_id: str, table_id: str) -> RematchOut:
        async with self.locks[table_id]:
            new_id, created, invited = await self._run(
                lambda s: self._rematch(s, profile_id, table_id)
            )
        if created:
            self._changed(table_id, new_id)
            self._tell(invited)
            if not invited and await self._alone(new_id):
                # A solo game (one seat): played again at once, as a solo table starts.
                await self.tables.start(profile_id, new_id)
        return RematchOut(table_id=new_id, created=created)

    async def _alone(self, table_id: str) -> bool:
        return await self._run(lambda s: lobby_table(s, table_id).seat_count == 1)

    def _rematch(
        self, s: Session, profile_id: str, table_id: str
    ) -> tuple[str, bool, list[Invited]]:
        t, seats = visible(s, profile_id, table_id, None)
        mine = next((x.seat for x in seats if x.profile_id == profile_id), None)
        if mine is None:
            raise NotYourSeat("only a player of the table can ask for a rematch")
        if t.status != TableStatus.FINISHED:
            raise WrongStatus("a rematch follows a finished game")
        if t.rematch_id is not None:
            return t.rematch_id, False, []
        suspension.check(s, profile_id)
        new = open_rematch(s, t, profile_id, mine)
        if new is None:  # another player's rematch committed first
            s.refresh(t)
            assert t.rematch_id is not None
            return t.rematch_id, False, []
        me = next(x for x in seats if x.profile_id == profile_id)
        inviter = repo.name_of(s, me.profile_id or "")
        invited = []
        for x in seats:
            if x.profile_id is None or x.profile_id == profile_id:
                continue
            if self._unwanted(s, x.profile_id, profile_id):
                continue  # their seat stays free, for a link or a bot
            s.add(
                TableInvitation(
                    table_id=new.id,
                    profile_id=x.profile_id,
                    inviter_id=profile_id,
                    seat=x.seat,
                    kind=InvitationKind.REMATCH,
                    status=InvitationStatus.PENDING,
                )
            )
            invited.append(Invited(x.profile_id, new.id, InvitationKind.REMATCH, inviter, new.name))
        s.flush()
        return new.id, True, invited

    # ------------------------------------------------------------------ invite, withdraw
    async def invite(
        self, host_id: str, table_id: str, invitee_id: str
    ) -> list[TableInvitationOut]:
        async with self.locks[table_id]:
            invited = await self._run(lambda s: self._invite(s, host_id, table_id, invitee_id))
        if invited is not None:
            self._changed(table_id)
            if invited.tell:
                self._tell([invited.invited])
        return await self.of_table(host_id, table_id)

    def _unwanted(self, s: Session, invitee_id: str, inviter_id: str) -> bool:
        since = self.clock.utcnow() - self.quiet
        return (
            repo.blocked(s, invitee_id, inviter_id)
            or checks.apart(s, invitee_id, inviter_id)  # a person block, either way
            or repo.declined_since(s, invitee_id, inviter_id, since)
            or repo.deleted(s, invitee_id)
        )

    def _invite(
        self, s: Session, host_id: str, table_id: str, invitee_id: str
    ) -> _Invitation | None:
        """The invitation made (``tell``: its person hears of it), or None when the same one
        was waiting already (nothing changes, nobody is told again)."""
        t, seats = visible(s, host_id, table_id, None)
        if t.host_profile_id != host_id:
            raise NotHost("only the host invites people to the table")
        suspension.check(s, host_id)
        if t.status != TableStatus.LOBBY:
            raise not_open(t.status)
        if invitee_id == host_id or not repo.shared_a_table(s, host_id, invitee_id):
            raise NotFound("no such person among the people you play with")
        if any(x.profile_id == invitee_id for x in seats):
            raise AlreadySeated("this person already sits at the table")
        row = repo.invitation_of(s, table_id, invitee_id)
        if row is not None and row.status == InvitationStatus.PENDING:
            if row.inviter_id == host_id:
                return None
            seat = row.seat
        else:
            if self._unwanted(s, invitee_id, host_id):
                raise NotWanted("this person takes no invitations from you now")
            seat = free_seat(s, t)
            if seat is None:
                raise NoFreeSeat("every seat is taken or kept for an invited person")
        first = row is None  # told once per table: asked again after a withdrawal, not again
        if row is None:
            row = TableInvitation(
                table_id=t.id, profile_id=invitee_id, inviter_id=host_id, kind=InvitationKind.INVITE
            )
            s.add(row)
        row.inviter_id = host_id
        row.seat = seat
        row.status = InvitationStatus.PENDING
        row.answered_at = None
        row.created_at = self.clock.utcnow()
        s.flush()
        removals.forget(s, t.id, invitee_id)  # invited again: a removal no longer holds
        name = repo.name_of(s, host_id)
        return _Invitation(Invited(invitee_id, t.id, InvitationKind.INVITE, name, t.name), first)

    async def withdraw(
        self, host_id: str, table_id: str, invitation_id: int
    ) -> list[TableInvitationOut]:
        async with self.locks[table_id]:
            await self._run(lambda s: self._withdraw(s, host_id, table_id, invitation_id))
        self._changed(table_id)
        return await self.of_table(host_id, table_id)

    def _withdraw(self, s: Session, host_id: str, table_id: str, invitation_id: int) -> None:
        t, _ = visible(s, host_id, table_id, None)
        if t.host_profile_id != host_id:
            raise NotHost("only the host takes an invitation back")
        row = repo.invitation(s, invitation_id)
        if row is None or row.table_id != table_id:
            raise NotFound("no such invitation")
        if not repo.answer(s, row.id, InvitationStatus.WITHDRAWN, self.clock.utcnow()):
            raise AlreadyAnswered("the invitation was answered already")

    # ------------------------------------------------------------------ answers
    async def accept(self, profile_id: str, invitation_id: int) -> LobbyAnswer:
        table_id = await self._run(lambda s: self._table_of(s, profile_id, invitation_id))
        async with self.locks[table_id]:
            old = await self._run(lambda s: self._accept(s, profile_id, invitation_id))
        self._changed(table_id, *old)
        return await self.tables.lobby(profile_id, table_id, None)

    async def decline(self, profile_id: str, invitation_id: int) -> None:
        table_id = await self._run(lambda s: self._table_of(s, profile_id, invitation_id))
        async with self.locks[table_id]:
            old = await self._run(lambda s: self._decline(s, profile_id, invitation_id))
        self._changed(table_id, *old)

    @staticmethod
    def _mine(s: Session, profile_id: str, invitation_id: int) -> TableInvitation:
        row = repo.invitation(s, invitation_id)
        if row is None or row.profile_id != profile_id:
            raise NotFound("no such invitation")  # another person's: as if it did not exist
        return row

    def _table_of(self, s: Session, profile_id: str, invitation_id: int) -> str:
        return self._mine(s, profile_id, invitation_id).table_id

    def _accept(self, s: Session, profile_id: str, invitation_id: int) -> list[str]:
        row = self._mine(s, profile_id, invitation_id)
        t = lobby_table(s, row.table_id)
        for other in {row.inviter_id, t.host_profile_id}:
            if checks.blocked(s, profile_id, other):
                raise HostBlocked("you blocked this table's host or the person who invited you")
            if checks.blocked(s, other, profile_id):
                raise NotFound("no such invitation")  # as if taken back: a block is not told
        if not repo.answer(s, row.id, InvitationStatus.ACCEPTED, self.clock.utcnow()):
            raise AlreadyAnswered("the invitation was answered already")
        seat_person(s, t, profile_id, row.seat)
        return repo.rematch_of(s, t.id)

    def _decline(self, s: Session, profile_id: str, invitation_id: int) -> list[str]:
        row = self._mine(s, profile_id, invitation_id)
        if not repo.answer(s, row.id, InvitationStatus.DECLINED, self.clock.utcnow()):
            raise AlreadyAnswered("the invitation was answered already")
        return repo.rematch_of(s, row.table_id)

    # ------------------------------------------------------------------ no more from them
    async def block(self, profile_id: str, invitation_id: int) -> None:
        """No more invitations from the inviter of my invitation ``invitation_id``: it, and every
        other one of theirs still waiting for me, is declined (their seats are free again). The
        block is stored first, so an invitation made meanwhile is refused."""
        inviter_id = await self._run(lambda s: self._mine(s, profile_id, invitation_id).inviter_id)
        await self._run(lambda s: repo.block(s, profile_id, inviter_id, self.clock.utcnow()))
        waiting = await self._run(
            lambda s: [(r.id, r.table_id) for r in repo.pending_from(s, profile_id, inviter_id)]
        )
        tables: list[str] = []
        for row_id, table_id in waiting:
            async with self.locks[table_id]:
                tables += await self._run(
                    partial(self._decline_row, row_id=row_id, table_id=table_id)
                )
        self._changed(*tables)

    def _decline_row(self, s: Session, row_id: int, table_id: str) -> list[str]:
        if not repo.answer(s, row_id, InvitationStatus.DECLINED, self.clock.utcnow()):
            return []
        return [table_id, *repo.rematch_of(s, table_id)]

    async def unblock(self, profile_id: str, other_id: str) -> None:
        """Invitations from ``other_id`` are welcome again (nothing happens if they were)."""
        await self._run(lambda s: repo.unblock(s, profile_id, other_id))

    async def blocks(self, profile_id: str) -> list[BlockedPerson]:
        return await self._run(lambda s: repo.blocks_of(s, profile_id))

    # ------------------------------------------------------------------ lists
    async def of_table(self, profile_id: str, table_id: str) -> list[TableInvitationOut]:
        return await self._run(lambda s: self._of_table(s, profile_id, table_id))

    def _of_table(self, s: Session, profile_id: str, table_id: str) -> list[TableInvitationOut]:
        rows = repo.of_table(s, table_id)
        invited = any(inv.profile_id == profile_id for inv, _, _ in rows)
        if not invited:
            visible(s, profile_id, table_id, None)  # a seat, or 404
        return [
            TableInvitationOut(
                id=inv.id,
                name=name,
                inviter=by,
                seat=inv.seat,
                kind=inv.kind,
                status=inv.status,
                you=inv.profile_id == profile_id,
            )
            for inv, name, by in rows
        ]

    async def mine(self, profile_id: str) -> list[MyInvitation]:
        return await self._run(lambda s: repo.pending_for(s, profile_id))

    def invitees_sync(self, table_id: str) -> list[str]:
        """Who was invited to the table (the My games feed wakes them too)."""
        with self.db.session() as s:
            return repo.invitees(s, table_id)
