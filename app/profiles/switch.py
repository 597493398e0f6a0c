"""A link or code that signs this browser in, opened where another profile is signed in.

An add-a-device link or code, an e-mail sign-in link and a recovery code each open a session
for the profile they belong to. Sent to a browser that is signed in as a different profile, the
server does not replace that session in one click: it answers ``409 signed_in_as_other`` with
both display names (the one signed in here, which this browser already knows, and the one the
link signs in as, which spending the link would show anyway) and changes nothing — the link or
code is not spent and still works. The request sent again with ``"switch": true`` signs in as
the link's profile. The same profile, or no valid session: it proceeds at once.

The check runs in the transaction that spends the link, after the link is found good (a wrong
link is still the same ``404``, counted by the guessing limit); raising there rolls the spend
back. The new session's cookie: app/profiles/handover.py.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.errors import AppError
from app.profiles import repository as repo


class SignedInAsOther(AppError):
    """This browser is signed in as another profile than the link's: nothing was changed, and
    the link still works. ``signed_in_as`` names the profile signed in here, ``link_profile``
    the one the link signs in as; send the request again with ``"switch": true`` to switch."""

    status = 409
    code = "signed_in_as_other"


def check_switch(s: Session, current: str | None, target: str, switch: bool) -> None:
    """Refuse (``SignedInAsOther``) to sign in as ``target`` where ``current``, another
    profile, is signed in, unless the request asked to ``switch``."""
    if current is None or current == target or switch:
        return
    here, there = repo.get(s, current), repo.get(s, target)
    if here is None or there is None:  # the session's profile is gone: nobody is signed in
        return
    raise SignedInAsOther(
        "this browser is signed in as another profile than the link's; send it again with "
        '"switch": true to sign in as that one',
        signed_in_as=here.name,
        link_profile=there.name,
    )
