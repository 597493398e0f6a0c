"""Play again plugged in: rematches and invitations. Their invitees' My games follow the table,
an invitation is pushed to the invitee's devices, and a block keeps two people's invitations
apart at once."""

from __future__ import annotations

from app.blocks.service import Blocks
from app.invitations import endpoints
from app.invitations.blocking import KeptApart
from app.invitations.push import InvitationPush
from app.invitations.service import Invitations
from app.mygames.events import MeFeed
from app.parts import Parts
from app.plug import Core, Feature, Work
from app.push.sender import PushSender
from app.tables.service import TableService


def plug(core: Core, parts: Parts) -> Feature:
    s, db, hub, clock = core.settings, core.db, core.hub, core.clock
    service = parts.get(TableService)
    invitations = Invitations(db, hub, service, clock, s.invitation_decline_quiet_days * 86400)
    parts.get(MeFeed).also.append(invitations.invitees_sync)
    push = parts.get(PushSender)
    invitation_push = InvitationPush(push.store, push)
    invitations.listeners.append(invitation_push.invited)
    parts.get(Blocks).listeners.append(KeptApart(db, hub, service.locks, clock).blocked)
    return Feature(
        "invitations",
        parts={"invitations": invitations, "invitation_push": invitation_push},
        routers=[endpoints.router],
        work=[Work("invitation push", stop=invitation_push.stop)],
    )
