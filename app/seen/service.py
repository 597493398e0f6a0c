"""Since you looked: the last version each seat's person saw, and what changed after it.

``POST …/seen`` (or the table socket's ``seen`` frame, app/seen/feed.py) moves the caller's mark
forward (never back, never past the table's version);
``GET …/since`` compares the caller's view at the mark with the current one
(``rules.changes_between``) and summarises the log entries in between as that seat received them
(``rules.summarize`` over ``events_for``), so the answer reveals nothing the seat was not sent.
The view at the mark is rebuilt by replaying the move log from the seed, the way the audit does;
a seat more than ``SINCE_WINDOW`` versions behind gets the summary of the last ones only.

The table chat has no versions: the messages counted as new (``chat_count``, the newest
``SINCE_CHAT`` of them in ``chat``) are the ones other people wrote after the later of the moment
the seat's marked version was played and the moment the person's last socket on the table closed
(``app.seen.repository.chat_seen_until``), leaving out the seats the person muted.

Spectators keep no mark: both routes take no invite code, so for someone without a seat the
table is ``404 not_found`` (a ``Viewer`` without a seat, should one come here, gets
``not_your_seat`` from ``mark`` and an empty answer from ``since``).
"""

from __future__ import annotations

from anyio import to_thread
from sqlalchemy.orm import Session

from app import rules
from app.chat import published as chat
from app.db.session import Database
from app.errors import NotFound, NotYourSeat, StaleVersion, WrongStatus
from app.seen import repository as seen_repo
from app.seen.schemas import SeenOut
from app.seen.shapes import SinceDoc
from app.tables import published, published_log
from app.tables.types import Viewer

# The most versions one answer replays and summarises.
SINCE_WINDOW = 200
# The most new chat messages one answer lists (all of them are counted).
SINCE_CHAT = 20


def _nothing(version: int, last_seen: int) -> SinceDoc:
    return {
        "from_version": version,
        "to_version": version,
        "last_seen_version": last_seen,
        "truncated": False,
        "changes": [],
        "summary": [],
        "new_log_versions": [],
        "chat_count": 0,
        "chat": [],
    }


class Seen:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ the mark
    async def mark(self, viewer: Viewer, version: int) -> SeenOut:
        if viewer.seat is None or viewer.profile_id is None:
            raise NotYourSeat("you do not hold a seat at this table")
        return await to_thread.run_sync(
            self._mark, viewer.table_id, viewer.seat, viewer.profile_id, version
        )

    async def mark_held(self, table_id: str, profile_id: str, version: int) -> SeenOut:
        """The mark of the seat the profile holds now (a socket's ``seen`` frame: the seat is
        judged at the moment of the act, not when the socket opened)."""
        return await to_thread.run_sync(self._mark, table_id, None, profile_id, version)

    def _mark(self, table_id: str, seat: int | None, profile_id: str, version: int) -> SeenOut:
        with self.db.session() as s:
            if seat is None:
                seat = published.seat_held(s, table_id, profile_id)
                if seat is None:
                    raise NotYourSeat("you do not hold a seat at this table")
            head = published_log.table_version(s, table_id)
            if head is None:
                raise NotFound("no such table")
            if not head.started:
                raise WrongStatus("the game has not started")
            if version > head.version:
                raise StaleVersion("the table has not reached that version", version=head.version)
            published_log.advance_seen(s, table_id, seat, profile_id, version)
            s.commit()
            return SeenOut(last_seen_version=published_log.last_seen(s, table_id, seat))

    # ------------------------------------------------------------------ what changed
    async def since(self, viewer: Viewer) -> SinceDoc:
        return await to_thread.run_sync(
            self._since, viewer.table_id, viewer.seat, viewer.profile_id
        )

    def _since(self, table_id: str, seat: int | None, profile_id: str | None) -> SinceDoc:
        with self.db.session() as s:
            out = self._since_game(s, table_id, seat)
            if seat is not None and profile_id is not None:
                until = seen_repo.chat_seen_until(s, table_id, profile_id, out["last_seen_version"])
                count, rows = chat.unread(s, table_id, profile_id, until, SINCE_CHAT)
                out["chat_count"] = count
                out["chat"] = [chat.as_dict(m) for m in rows]
            return out

    def _since_game(self, s: Session, table_id: str, seat: int | None) -> SinceDoc:
        t = published_log.game_head(s, table_id)
        if t is None:
            raise NotFound("no such table")
        if t.state is None or t.seed is None:
            raise WrongStatus("the game has not started")
        version: int = t.version
        if seat is None:
            return _nothing(version, version)
        mark = min(published_log.last_seen(s, table_id, seat), version)
        if mark >= version:
            return _nothing(version, mark)
        start = max(mark, version - SINCE_WINDOW)
        truncated = start > mark
        if truncated:
            missed = list(published_log.log_between(s.connection(), table_id, start, version))
            changes: list[rules.Change] = []
        else:
            records = published_log.full_log(s, table_id, upto=version)
            missed = [r for r in records if r.version > mark]
            played = [(r.seat, r.move) for r in records if r.version <= mark]
            before = rules.replay(t.seed, t.engine_options or {}, played)
            after = rules.decode_state(t.state)
            changes = list(
                rules.changes_between(rules.view_for(before, seat), rules.view_for(after, seat))
            )
        entries: list[rules.LogEntry] = [
            {
                "version": r.version,
                "seat": r.seat,
                "move": r.move,
                "events": rules.events_for(r.events, seat),
            }
            for r in missed
        ]
        return {
            "from_version": start,
            "to_version": version,
            "last_seen_version": mark,
            "truncated": truncated,
            "changes": changes,
            "summary": list(rules.summarize(entries, seat)),
            "new_log_versions": [r.version for r in missed],
            "chat_count": 0,
            "chat": [],
        }
