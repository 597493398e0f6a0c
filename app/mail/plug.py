"""E-mail plugged in: addresses, sign-in links, and game notifications (a background subscriber
of the hub; an invitation is mailed too)."""

from __future__ import annotations

from app.invitations.service import Invitations
from app.mail import endpoints
from app.mail.parts import MailParts
from app.parts import Parts
from app.plug import Core, Feature, Work
from app.profiles.service import ProfileService


def plug(core: Core, parts: Parts) -> Feature:
    mail = MailParts.build(core.settings, core.db, core.hub, core.clock, parts.get(ProfileService))
    parts.get(Invitations).listeners.append(mail.notifier.invited)
    return Feature(
        "mail",
        parts={"mail": mail.service, "mailer": mail.notifier},
        routers=[endpoints.router],
        work=[Work("mail", mail.start, mail.stop)],
    )
