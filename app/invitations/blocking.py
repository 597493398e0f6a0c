"""A block keeps two people's invitations apart (app/blocks calls ``blocked`` after the block
committed). Every invitation still waiting between them is answered: one to the person who
blocked is declined (their "no", as the inviter sees any), one to the blocked person is taken
back (as a host withdraws one). From then on the checks of app/blocks refuse new ones both
ways: a blocked person cannot invite the one who blocked them, and a rematch leaves either's
seat free."""

from __future__ import annotations

from anyio import to_thread

from app.clock import Clock
from app.db.session import Database
from app.invitations import repository as repo
from app.invitations.schemas import InvitationStatus
from app.realtime.hub import Hub, Notice, NoticeKind
from app.tables.locks import KeyedLocks


class KeptApart:
    def __init__(self, db: Database, hub: Hub, locks: KeyedLocks, clock: Clock) -> None:
        self.db = db
        self.hub = hub
        self.locks = locks
        self.clock = clock

    async def blocked(self, blocker: str, blocked: str) -> None:
        """A blocks listener (after the commit of ``blocker``'s block of ``blocked``)."""

        def waiting() -> list[tuple[int, str, str]]:
            with self.db.session() as s:
                return repo.pending_between(s, blocker, blocked)

        changed: set[str] = set()
        for row_id, table_id, invitee in await to_thread.run_sync(waiting):
            status = InvitationStatus.DECLINED if invitee == blocker else InvitationStatus.WITHDRAWN
            async with self.locks[table_id]:
                changed.update(await to_thread.run_sync(self._answer, row_id, table_id, status))
        for table_id in sorted(changed):
            self.hub.publish(Notice(table_id, NoticeKind.LOBBY))

    def _answer(self, row_id: int, table_id: str, status: InvitationStatus) -> list[str]:
        """The tables whose viewers hear of it (the table, and the game it is a rematch of)."""
        with self.db.session() as s:
            if not repo.answer(s, row_id, status, self.clock.utcnow()):
                return []  # answered meanwhile
            return [table_id, *repo.rematch_of(s, table_id)]
