"""Invitations by Web Push: every subscribed device of the invited person hears of a rematch or
an invitation, in its own language, and opens My games (where they accept or decline).

It goes through the push feature's published parts (its subscription store and its sender's
delivery queue), after the commit, on tasks of its own, bounded in number: an invitation
beyond the bound is told by the My games feed and e-mail only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import orjson
from anyio import to_thread

from app.invitations.service import Invited
from app.push.delivery import Job
from app.push.published import PushStore
from app.push.sender import PushSender

log = logging.getLogger("emara.invitations")

MAX_PENDING = 100

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "rematch": "{inviter} asks for a rematch",
        "invite": "{inviter} invites you to a table",
        "body": "{table}: accept or decline in My games.",
        "table_of": "{inviter}'s table",
    },
    "de": {
        "rematch": "{inviter} möchte eine Revanche",
        "invite": "{inviter} lädt dich an einen Tisch ein",
        "body": "{table}: sag zu oder ab in Meine Spiele.",
        "table_of": "Tisch von {inviter}",
    },
    "cs": {
        "rematch": "{inviter} chce odvetu",
        "invite": "{inviter} vás zve ke stolu",
        "body": "{table}: přijměte nebo odmítněte v Mých hrách.",
        "table_of": "stůl hráče {inviter}",
    },
}


def payload(inv: Invited, lang: str) -> dict[str, object]:
    words = WORDS.get(lang, WORDS["en"])
    table = inv.table_name or words["table_of"].format(inviter=inv.inviter_name)
    return {
        "title": words[str(inv.kind)].format(inviter=inv.inviter_name),
        "body": words["body"].format(table=table),
        "url": "/games",
        "tag": f"emara-invitation-{inv.table_id}",
        "kind": "invitation",
        "params": {"table_id": inv.table_id, "kind": str(inv.kind), "inviter": inv.inviter_name},
    }


class InvitationPush:
    def __init__(self, store: PushStore, sender: PushSender) -> None:
        self.store = store
        self.sender = sender
        self.tasks: set[asyncio.Task[None]] = set()

    def invited(self, inv: Invited) -> None:
        """An invitations listener (after the commit, on the loop)."""
        if len(self.tasks) >= MAX_PENDING:
            log.warning("invitation pushes: too many pending, one left to My games and e-mail")
            return
        task = asyncio.get_running_loop().create_task(self._tell(inv))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _tell(self, inv: Invited) -> None:
        for target in await to_thread.run_sync(self.store.targets, inv.profile_id):
            data = orjson.dumps(payload(inv, target.lang)).decode()
            # The push delivery's bounded queue, deadline and endpoint checks; it removes a
            # subscription its service calls gone.
            self.sender.delivery.offer(Job(target, data))

    async def idle(self) -> None:
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
        await self.sender.delivery.idle()

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
