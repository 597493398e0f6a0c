"""A person's blocks: block someone (by profile id), lift a block, list them.

Who may: anyone signed in, for any profile that exists (never themselves: ``422
cannot_block_self``; a deleted or unknown profile: ``404``). A block is stored once: blocking
again answers the first block. Nothing tells the blocked person. After the commit the
listeners hear of a new block (``(blocker, blocked)``): the invitations feature declines the
blocked person's invitations still waiting for the blocker. What a block hides is judged where
it is read (``checks``), so it holds at once on every instance.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from anyio import to_thread
from sqlalchemy.exc import IntegrityError

from app.blocks import repository as repo
from app.blocks.errors import CannotBlockSelf
from app.blocks.schemas import BlockOut
from app.clock import Clock
from app.db.session import Database
from app.errors import NotFound
from app.isotime import iso

log = logging.getLogger("emara.blocks")

Listener = Callable[[str, str], Awaitable[None]]


@dataclass(frozen=True)
class Blocked:
    id: str
    name: str
    since: datetime
    created: bool  # this call made the block (False: it was there already)

    def out(self) -> BlockOut:
        return BlockOut(id=self.id, name=self.name, since=iso(self.since))


class Blocks:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.listeners: list[Listener] = []

    async def block(self, profile_id: str, other_id: str) -> Blocked:
        """``profile_id`` blocks ``other_id``; the block (``created``: made by this call)."""
        if other_id == profile_id:
            raise CannotBlockSelf("you cannot block yourself")
        try:
            out = await to_thread.run_sync(self._block, profile_id, other_id)
        except IntegrityError:  # the same block committed meanwhile: it is the answer
            out = await to_thread.run_sync(self._block, profile_id, other_id)
        if out.created:
            for listener in self.listeners:
                try:
                    await listener(profile_id, other_id)
                except Exception:
                    log.exception("a block listener failed")
        return out

    def _block(self, profile_id: str, other_id: str) -> Blocked:
        with self.db.session() as s:
            found = repo.person(s, other_id)
            if found is None:
                raise NotFound("no such person")
            _, name = found
            at = repo.since(s, profile_id, other_id)
            if at is not None:
                return Blocked(other_id, name, at, False)
            at = self.clock.utcnow()
            repo.add(s, profile_id, other_id, at)
            return Blocked(other_id, name, at, True)

    async def unblock(self, profile_id: str, other_id: str) -> None:
        """Lift the block (nothing happens if there was none)."""

        def work() -> None:
            with self.db.session() as s:
                repo.remove(s, profile_id, other_id)

        await to_thread.run_sync(work)

    async def of(self, profile_id: str) -> list[BlockOut]:
        """The people ``profile_id`` blocked, latest first (at most ``LIST_LIMIT``)."""

        def work() -> list[BlockOut]:
            with self.db.read_session() as s:
                return [
                    BlockOut(id=r.id, name=r.name, since=iso(r.since))
                    for r in repo.of(s, profile_id)
                ]

        return await to_thread.run_sync(work)
