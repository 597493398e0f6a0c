"""Deleting a profile, in one transaction: the person leaves every table still open (a lobby
seat is left; a running game's seat goes to a bot), and everything personal is erased — the
name, the recovery code, every session and device, passkeys, the e-mail address and its links,
push subscriptions, security notices, invitations and blocks, removals from lobbies, reports
about them (the reports they made stay, without their name), imported records, analysis
requests, the chat messages they wrote, presence. What stays: the profile's id with a neutral
name, so the seats it held in finished games keep a name and the other players' records stay
whole and replayable (docs/privacy.md)."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import delete, or_, update
from sqlalchemy.orm import Session

from app.db.models import (
    AnalysisRequest,
    ChatMessage,
    ChatMute,
    DeviceCode,
    DeviceSession,
    EmailAddress,
    EmailOutbox,
    EmailToken,
    ImportedReplay,
    InvitationBlock,
    Passkey,
    PasskeyChallenge,
    PasskeyUser,
    PersonBlock,
    Presence,
    Profile,
    PushSubscription,
    Report,
    SecurityNotice,
    SeenAt,
    TableInvitation,
    TableRemoval,
)
from app.errors import NotFound
from app.tables import operator
from app.tables.operator import Changed

# The name a deleted profile's seats show from then on.
NEUTRAL_NAME = "Former player"


def erase(s: Session, profile_id: str, now: datetime) -> list[Changed]:
    """Delete the profile (see the module's text); the tables whose seats changed."""
    p = s.get(Profile, profile_id, with_for_update=True)
    if p is None or p.deleted_at is not None:
        raise NotFound("no such profile")
    changed = operator.leave_everywhere(s, profile_id)
    for model, column in (
        (DeviceSession, DeviceSession.profile_id),
        (DeviceCode, DeviceCode.profile_id),
        (Passkey, Passkey.profile_id),
        (PasskeyUser, PasskeyUser.profile_id),
        (PasskeyChallenge, PasskeyChallenge.profile_id),
        (EmailAddress, EmailAddress.profile_id),
        (EmailToken, EmailToken.profile_id),
        (EmailOutbox, EmailOutbox.profile_id),
        (PushSubscription, PushSubscription.profile_id),
        (SecurityNotice, SecurityNotice.profile_id),
        (ImportedReplay, ImportedReplay.owner_profile_id),
        (AnalysisRequest, AnalysisRequest.profile_id),
        (ChatMessage, ChatMessage.profile_id),
        (ChatMute, ChatMute.profile_id),
        (Presence, Presence.profile_id),
        (SeenAt, SeenAt.profile_id),
    ):
        s.execute(delete(model).where(column == profile_id))
    s.execute(
        delete(InvitationBlock).where(
            or_(InvitationBlock.profile_id == profile_id, InvitationBlock.blocked_id == profile_id)
        )
    )
    # Blocks to or from them, removals from lobbies, the reports about them (nothing left to
    # act on); the reports they made stay in the operator's queue without their name.
    s.execute(
        delete(PersonBlock).where(
            or_(PersonBlock.profile_id == profile_id, PersonBlock.blocked_id == profile_id)
        )
    )
    s.execute(delete(TableRemoval).where(TableRemoval.profile_id == profile_id))
    s.execute(delete(Report).where(Report.reported_id == profile_id))
    s.execute(update(Report).where(Report.reporter_id == profile_id).values(reporter_id=None))
    s.execute(
        delete(TableInvitation).where(
            or_(TableInvitation.profile_id == profile_id, TableInvitation.inviter_id == profile_id)
        )
    )
    s.execute(
        update(Profile)
        .where(Profile.id == profile_id)
        .values(
            name=NEUTRAL_NAME,
            # No code hashes to this: nobody can recover the profile.
            recovery_hash="erased-" + secrets.token_hex(28),
            generation=Profile.generation + 1,
            guide=None,
            suspended_at=None,
            suspended_reason=None,
            deleted_at=now,
        )
    )
    return changed
