"""Tables: profile, game table (snapshot + version), seat, and the append-only move log."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.db.table_status import TableStatus


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Profile(Base):
    __tablename__ = "profile"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    recovery_hash: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Sessions: a token is good only while it names the current generation. Sign out everywhere
    # and every recovery add one, cutting off every token issued before (migration 0310).
    generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The guided first game: "finished" or "dismissed" once the person got past it; null before
    # (migration 0875; app/tutorial).
    guide: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)
    # An operator's suspension (migration 0920; app/profiles/suspension.py): while set, the
    # profile cannot open tables or invite. ``deleted_at``: the person deleted the profile; only
    # its id and a neutral name are left, for the seats it held in other people's games.
    suspended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    suspended_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class GameTable(Base):
    __tablename__ = "game_table"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite_code: Mapped[str] = mapped_column(String(32))
    host_profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"))
    seat_count: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # lobby -> playing -> finished (or closed: everybody left before the start)
    # Stored as its value in a VARCHAR(16) (no database enum type); read back as TableStatus.
    status: Mapped[TableStatus] = mapped_column(
        Enum(
            TableStatus,
            native_enum=False,
            length=16,
            values_callable=lambda e: [m.value for m in e],
        ),
        default=TableStatus.LOBBY,
        index=True,
    )
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # The options exactly as handed to the engine (start player resolved): replay needs them.
    engine_options: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    # Bumped in the transaction of every seat change (join, leave, a bot put, removed, handed a
    # seat or reclaimed): a move's conditional update checks it, so the seats a move was judged
    # with are the table's seats on every instance (migration 0300).
    seats_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # --- Pace (migration 0400): the clock blob (app/pace/clock.py) and the earliest deadline of
    # a person's seat to act, epoch seconds (NULL: no clock runs); written by the move's UPDATE.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    # --- Play again (migration 0850): the host's name for the table, and the table of its
    # rematch (set once, by the first player who asks for it).
    name: Mapped[str | None] = mapped_column(String(60), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Seat(Base):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_seat_table_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    # A seat is held by a person (profile_id) or by a server-side bot (bot_level).
    profile_id: Mapped[str | None] = mapped_column(
        ForeignKey("profile.id"), nullable=True, index=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The last table version this seat's person saw ("since you looked"; migration 0500): only
    # moves forward, kept across devices and restarts.
    last_seen_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class MoveRecord(Base):
    __tablename__ = "move"
    __table_args__ = (
        UniqueConstraint("table_id", "version", name="uq_move_table_version"),
        # A move_id is unique per seat: one seat cannot spend another seat's id (migration 0300).
        UniqueConstraint("table_id", "seat", "move_id", name="uq_move_table_seat_move_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)  # the table version this move produced
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON)  # raw engine events; redact before sending
    move_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# Presence and table chat (migration 0600)
class Presence(Base):
    """One server instance holds at least one open socket of ``profile_id`` on ``table_id``.
    Refreshed by that instance while it lives; a person is present while any unexpired row
    exists (an instance that dies stops refreshing and its rows run out)."""

    __tablename__ = "presence"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"), primary_key=True)
    instance: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeenAt(Base):
    """When a person's last socket on a table closed (or their instance's row ran out)."""

    __tablename__ = "presence_seen"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"), primary_key=True)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMessage(Base):
    __tablename__ = "chat_message"
    __table_args__ = (
        # Exactly once: a retried message (same client msg_id) is the first one, never a copy.
        UniqueConstraint("table_id", "profile_id", "msg_id", name="uq_chat_table_profile_msg"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), index=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    msg_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMute(Base):
    """A viewer does not want to read one seat's messages at one table (on every device)."""

    __tablename__ = "chat_mute"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)


# --- Pace and Web Push (migration 0400) ---------------------------------------------------------
class TableEvent(Base):
    """What happened at a table besides moves: a seat timed out, the clock paused or resumed."""

    __tablename__ = "table_event"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushSubscription(Base):
    """A browser's PushSubscription for a profile (one per endpoint)."""

    __tablename__ = "push_subscription"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    lang: Mapped[str] = mapped_column(String(2), default="en")
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# --- Play again and e-mail (migration 0850) ------------------------------------------------------
class TableInvitation(Base):
    """A person asked to sit at a table (a rematch, or the host's invitation from "People I play
    with"): the seat stays theirs while the invitation is pending."""

    __tablename__ = "table_invitation"
    __table_args__ = (
        UniqueConstraint("table_id", "profile_id", name="uq_invitation_table_profile"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), index=True
    )
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    inviter_id: Mapped[str] = mapped_column(ForeignKey("profile.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(16))  # rematch | invite
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | accepted | ...
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class InvitationBlock(Base):
    """``profile_id`` takes no more invitations (nor rematch invitations) from ``blocked_id``."""

    __tablename__ = "invitation_block"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EmailAddress(Base):
    """A profile's confirmed e-mail address (at most one; an address belongs to one profile)."""

    __tablename__ = "email_address"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(254), unique=True)
    lang: Mapped[str] = mapped_column(String(2), default="en")
    # Game notifications wanted (one-click unsubscribe turns this off; sign-in links still work).
    notify: Mapped[bool] = mapped_column(Boolean, default=True)
    confirmed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EmailToken(Base):
    """A confirmation or sign-in link: only its hash is kept; single use, short-lived."""

    __tablename__ = "email_token"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    purpose: Mapped[str] = mapped_column(String(16))  # confirm | signin
    address: Mapped[str] = mapped_column(String(254))
    lang: Mapped[str] = mapped_column(String(2), default="en")
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    used: Mapped[bool] = mapped_column(Boolean, default=False)
    # The device session that asked for a confirmation link (its change is not a notice to it).
    session_id: Mapped[str | None] = mapped_column(String(24), nullable=True, default=None)


class EmailOutbox(Base):
    """A game notification to send by e-mail: queued after the commit of what caused it, sent
    (or dropped) when due by whichever instance claims it first."""

    __tablename__ = "email_outbox"
    __table_args__ = (UniqueConstraint("dedupe", name="uq_email_outbox_dedupe"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_table.id", ondelete="CASCADE"), nullable=True, index=True
    )
    kind: Mapped[str] = mapped_column(String(16))  # your_turn | time_short | game_over
    dedupe: Mapped[str] = mapped_column(String(160))
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    due_at: Mapped[float] = mapped_column(Float, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # pending | sent | dropped
    done_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class DeviceSession(Base):
    """One signed-in device of a profile (its tokens name it): listed in My devices, signed out
    one by one. ``how`` it began: created | recovery | added | email | passkey | earlier."""

    __tablename__ = "device_session"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    device: Mapped[str] = mapped_column(String(80))
    # The person's own name for this device (None: not named; My devices shows ``device``).
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    how: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # When this device last said "that was me" to a recovery elsewhere (None: never).
    acknowledged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # When this device last proved it is its person: its sign-in, or a re-entered recovery code
    # or passkey (None: never, e.g. a session from before device sessions). Adding or removing a
    # passkey or an address needs this to be recent (migration 0900).
    proved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The newest security notice this device dismissed (None: none).
    notices_seen: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SecurityNotice(Base):
    """A change to the ways into a profile, shown to its other devices until each dismisses it:
    ``kind`` passkey_added | address_added | address_changed; ``detail`` the passkey's name or
    the new address; ``session_id`` the device that made it (None: unknown)."""

    __tablename__ = "security_notice"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    session_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    kind: Mapped[str] = mapped_column(String(24))
    detail: Mapped[str] = mapped_column(String(254))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DeviceCode(Base):
    """A short code a signed-in device shows to add another: its hash, once, for 10 minutes."""

    __tablename__ = "device_code"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    profile_id: Mapped[str] = mapped_column(ForeignKey("profile.id", ondelete="CASCADE"))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyUser(Base):
    """The opaque WebAuthn user handle of a profile (random, never its id): one per profile,
    made with its first passkey (migration 0870)."""

    __tablename__ = "passkey_user"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), primary_key=True
    )
    handle: Mapped[str] = mapped_column(String(64), unique=True)


class Passkey(Base):
    """A profile's WebAuthn credential: its id (base64url), public key (COSE) and sign count."""

    __tablename__ = "passkey"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    transports: Mapped[list[str]] = mapped_column(JSON, default=list)
    name: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallenge(Base):
    """A registration or sign-in challenge: only its hash is kept; single use, short-lived."""

    __tablename__ = "passkey_challenge"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))  # register | signin
    # The profile a registration is for (None for a sign-in: nobody is known yet).
    profile_id: Mapped[str | None] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), nullable=True
    )
    expires_at: Mapped[float] = mapped_column(Float, index=True)


# --- Game records (migration 0880) ---------------------------------------------------------------
class ImportedReplay(Base):
    """A game record a person imported (checked by replaying it): a replay they own. Its id is
    unguessable (24 URL-safe characters); a finished table's replay is addressed by the table's
    own id instead and needs no row (docs/records.md)."""

    __tablename__ = "imported_replay"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_profile_id: Mapped[str] = mapped_column(
        ForeignKey("profile.id", ondelete="CASCADE"), index=True
    )
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    positions: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# --- Analysis after the game (migration 0890) ----------------------------------------------------
class AnalysisJob(Base):
    """One analysis of one game record by one bot version, queued for any instance to run
    (docs/analysis.md). ``lease_owner`` runs it until ``lease_until`` (epoch seconds of the
    injected clock); a lease run out is anyone's to take over."""

    __tablename__ = "analysis_job"
    __table_args__ = (UniqueConstraint("record_key", "bot_version", name="uq_analysis_job_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    record_key: Mapped[str] = mapped_column(String(64))
    bot_version: Mapped[str] = mapped_column(String(64))
    replay_id: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), index=True)
    total: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AnalysisPosition(Base):
    """The analysis of one position: each player's expected final score (from the view of
    ``seat``, the seat to act), and, where a swing needs it, the bot's preferred move there."""

    __tablename__ = "analysis_position"

    job_id: Mapped[int] = mapped_column(
        ForeignKey("analysis_job.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    expected: Mapped[list[float]] = mapped_column(JSON)
    preferred: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Where a swing or luck was measured (app/analysis/measure.py): the move's cost and each
    # seat's luck, [mean, standard error].
    measured: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class AnalysisRequest(Base):
    """Who asked for an analysis: one row per job and requester (a profile, or an address for
    someone not signed in), with the address it came from. The caps count a requester's rows
    whose job is not finished; the queue serves the requester served least recently first
    (``served_at``: when a job of theirs was last taken up, epoch seconds of the injected
    clock)."""

    __tablename__ = "analysis_request"
    __table_args__ = (
        UniqueConstraint("job_id", "requester", name="uq_analysis_request_job_requester"),
        Index("ix_analysis_request_requester_served", "requester", "served_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    job_id: Mapped[int] = mapped_column(
        ForeignKey("analysis_job.id", ondelete="CASCADE"), index=True
    )
    requester: Mapped[str] = mapped_column(String(80))
    profile_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    address: Mapped[str] = mapped_column(String(80), index=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    served_at: Mapped[float | None] = mapped_column(Float, nullable=True)
