"""The models, one module per owning feature (docs/architecture.md, "Data": a feature's rows
are read and written by that feature; others call its published functions). Every model is
imported here so that the metadata (``Base.metadata``, the migrations' check) knows them all."""

from __future__ import annotations

from app.db.models.analysis import AnalysisJob, AnalysisPosition, AnalysisRequest
from app.db.models.base import Base, utcnow
from app.db.models.blocks import PersonBlock
from app.db.models.chat import ChatMessage, ChatMute
from app.db.models.invitations import InvitationBlock, TableInvitation
from app.db.models.mail import EmailAddress, EmailOutbox, EmailToken
from app.db.models.pace import TableEvent
from app.db.models.passkeys import Passkey, PasskeyChallenge, PasskeyUser
from app.db.models.presence import Presence, SeenAt
from app.db.models.profiles import DeviceCode, DeviceSession, Profile, SecurityNotice
from app.db.models.push import PushSubscription
from app.db.models.records import ImportedReplay
from app.db.models.safety import Report
from app.db.models.tables import GameTable, MoveRecord, Seat, TableRemoval

__all__ = [
    "AnalysisJob",
    "AnalysisPosition",
    "AnalysisRequest",
    "Base",
    "ChatMessage",
    "ChatMute",
    "DeviceCode",
    "DeviceSession",
    "EmailAddress",
    "EmailOutbox",
    "EmailToken",
    "GameTable",
    "ImportedReplay",
    "InvitationBlock",
    "MoveRecord",
    "Passkey",
    "PasskeyChallenge",
    "PasskeyUser",
    "PersonBlock",
    "Presence",
    "Profile",
    "PushSubscription",
    "Report",
    "Seat",
    "SecurityNotice",
    "SeenAt",
    "TableEvent",
    "TableInvitation",
    "TableRemoval",
    "utcnow",
]
