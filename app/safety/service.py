"""Reports and blocks made at a table.

Who may, judged at the moment of the act: a signed-in person who may look at the table now (a
seat, or the invite code where spectators are allowed; app/tables ``viewer``), about the writer
of one of its chat messages or the person at one of its seats — never themselves
(``cannot_report_self``, ``cannot_block_self``).

A report keeps what was reported as it was (the message's text and its writer's name, or the
person's name), the reason and the reporter's optional words; one report per reporter and
subject (``already_reported``). A reporter has at most ``open_per_reporter`` reports waiting in
the operator's queue (``too_many_open_reports``): counted in the report's own transaction,
after taking the reporter's row lock, so reports sent at once cannot all pass the count. The
route's rate limit (``EMARA_RATE_REPORT``) bounds the rest. Nobody but the operator learns who
reported: the reported person is never told.
"""

from __future__ import annotations

from anyio import to_thread
from sqlalchemy.exc import IntegrityError

from app.blocks.service import Blocked, Blocks
from app.clock import Clock
from app.db.models import Report
from app.db.session import Database
from app.isotime import iso
from app.safety import repository as repo
from app.safety import subject
from app.safety.errors import AlreadyReported, CannotReportSelf, TooManyOpenReports
from app.safety.schemas import ReportIn, ReportKind, ReportOut, ReportStatus, SubjectIn
from app.tables.service import TableService


def subject_key(kind: ReportKind, pointed: subject.Pointed) -> str:
    """What one report is about, for "one report per reporter and subject": a message by its
    id; a name by its person and the name itself (a new name can be reported again)."""
    if kind == ReportKind.MESSAGE:
        return f"message:{pointed.message_id}"
    return f"name:{pointed.profile_id}:{pointed.name}"


class Safety:
    def __init__(
        self,
        db: Database,
        tables: TableService,
        blocks: Blocks,
        clock: Clock,
        open_per_reporter: int = 10,
    ) -> None:
        self.db = db
        self.tables = tables
        self.blocks = blocks
        self.clock = clock
        self.open_per_reporter = open_per_reporter

    async def report(
        self, profile_id: str, table_id: str, invite: str | None, body: ReportIn
    ) -> ReportOut:
        await self.tables.viewer(profile_id, table_id, invite)  # may look at the table now
        try:
            return await to_thread.run_sync(self._report, profile_id, table_id, body)
        except IntegrityError:  # the same report raced in from another request
            raise AlreadyReported("you reported this already") from None

    def _report(self, profile_id: str, table_id: str, body: ReportIn) -> ReportOut:
        kind = ReportKind.MESSAGE if body.message_id is not None else ReportKind.NAME
        with self.db.session() as s:
            who = subject.pointed(s, table_id, body.message_id, body.seat)
            if who.profile_id == profile_id:
                raise CannotReportSelf("you cannot report yourself")
            key = subject_key(kind, who)
            repo.lock_reporter(s, profile_id)
            if repo.filed(s, profile_id, key):
                raise AlreadyReported("you reported this already")
            if repo.open_count(s, profile_id) >= self.open_per_reporter:
                raise TooManyOpenReports(
                    "your earlier reports are still waiting for the operator",
                    limit=self.open_per_reporter,
                )
            r = repo.add(
                s,
                Report(
                    reporter_id=profile_id,
                    reported_id=who.profile_id,
                    table_id=table_id,
                    kind=kind,
                    subject=key,
                    message_id=who.message_id,
                    message_text=who.text,
                    message_at=who.written_at,
                    reported_name=who.name,
                    reason=body.reason,
                    note=body.note,
                    status=ReportStatus.OPEN,
                    created_at=self.clock.utcnow(),
                ),
            )
            return ReportOut(
                id=r.id,
                kind=kind,
                reason=body.reason,
                status=ReportStatus.OPEN,
                name=who.name,
                created_at=iso(r.created_at),
            )

    async def block(
        self, profile_id: str, table_id: str, invite: str | None, body: SubjectIn
    ) -> Blocked:
        """Block the writer of a message, or the person at a seat, of a table one may look at."""
        await self.tables.viewer(profile_id, table_id, invite)

        def work() -> str:
            with self.db.read_session() as s:
                return subject.pointed(s, table_id, body.message_id, body.seat).profile_id

        other = await to_thread.run_sync(work)
        return await self.blocks.block(profile_id, other)
