"""My data: the download and the deletion, for the profile page and for an operator (a request
that arrived by mail: python -m app.admin profiles export / delete)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from anyio import to_thread
from sqlalchemy.orm import Session

from app.clock import Clock
from app.db.session import Database
from app.mydata.erase import erase
from app.mydata.export import my_data
from app.mydata.schemas import MyDataOut
from app.realtime.hub import Hub, Notice, NoticeKind

T = TypeVar("T")


class MyData:
    def __init__(self, db: Database, hub: Hub, clock: Clock) -> None:
        self.db = db
        self.hub = hub
        self.clock = clock

    async def _run(self, work: Callable[[Session], T]) -> T:
        def in_session() -> T:
            with self.db.session() as s:
                return work(s)

        return await to_thread.run_sync(in_session)

    async def export(self, profile_id: str) -> MyDataOut:
        now = self.clock.utcnow()
        return await self._run(lambda s: my_data(s, profile_id, now))

    async def delete(self, profile_id: str) -> int:
        """Delete the profile; after the commit, its tables' players are told (a bot wakes
        where it now plays the seat) and its sockets end on every instance. The number of
        tables it was taken out of."""
        now = self.clock.utcnow()
        changed = await self._run(lambda s: erase(s, profile_id, now))
        for c in changed:
            self.hub.publish(Notice(c.table_id, NoticeKind.LOBBY))
            if c.version is not None:
                self.hub.publish(Notice(c.table_id, NoticeKind.GAME, c.version))
        self.hub.signed_out(profile_id)
        return len(changed)
