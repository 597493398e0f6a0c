"""Profiles and sessions: create, recover with a one-time code, who am I, sign out everywhere.

Session rules (docs/protocol.md "Sessions"):

- a token is good for ``session_seconds`` after its issue time, and only while it names the
  profile's current ``generation`` (kept in the database, so every instance agrees at once);
- a good token older than ``renew_seconds`` is answered with a fresh one (renewal by use), so a
  person who keeps playing is never signed out, and a token left unused runs out;
- every token names its device session (My devices): a device signed out from the list is
  refused from then on, the others are not;
- signing out everywhere adds one to the generation: every earlier token, on every device, is
  refused from then on; a recovery signs in this device only, and the others are told;
- a recovery code works once: using it replaces it by a new code, returned to be shown;
- a change to the ways in (a passkey, the e-mail address, a code that adds a device) needs a
  recent proof on this device: its sign-in, or a re-entered recovery code or passkey, within
  ``proof_seconds`` (``check_proof``; the routes use ``deps.recent_proof``); signing out
  everywhere keeps this device's proof, it proves nothing new.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from anyio import to_thread
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from app.auth import (
    TokenSigner,
    hash_device_code,
    hash_recovery_code,
    new_device_code,
    new_recovery_code,
)
from app.clock import Clock
from app.db.models import DeviceSession
from app.db.session import Database
from app.errors import BadDeviceCode, BadRecoveryCode, NotFound, RecentProofRequired
from app.isotime import aware
from app.profiles import added
from app.profiles import notices as notice_rows
from app.profiles import repository as repo
from app.profiles.switch import check_switch

T = TypeVar("T")

# Instances' clocks may differ a little: a token issued up to this far "in the future" is fine.
CLOCK_SKEW_SECONDS = 300.0
# A device's "last used" is written at most this often (a read per request, a write per 5 min).
TOUCH_SECONDS = 300.0
DEVICE = "a device"  # a device the browser did not name
DEVICE_CODE_SECONDS = 600


@dataclass(frozen=True)
class Issued:
    """A profile with a fresh token for this device."""

    id: str
    name: str
    token: str


@dataclass(frozen=True)
class IssuedWithCode(Issued):
    """... and the recovery code to show the person (after create and recover)."""

    recovery_code: str


@dataclass(frozen=True)
class SessionInfo:
    profile_id: str
    name: str
    # A fresh token when the presented one is due for renewal, else None.
    renewed_token: str | None
    session_id: str = ""  # the device session (My devices)
    # When this device last proved it is its person (its sign-in, a re-entered recovery code or
    # passkey); None: never.
    proved_at: datetime | None = None


class ProfileService:
    def __init__(
        self,
        db: Database,
        signer: TokenSigner,
        clock: Clock,
        session_seconds: float,
        renew_seconds: float,
        proof_seconds: float = 300.0,
        notices_kept: int = notice_rows.KEPT,
    ) -> None:
        self.db = db
        self.signer = signer
        self.clock = clock
        self.session_seconds = session_seconds
        self.renew_seconds = renew_seconds
        self.proof_seconds = proof_seconds
        self.notices_kept = notices_kept  # security notices kept per profile
        # Told (after the commit, on the loop) of a profile whose every earlier session was cut
        # off: create_app ends its open sockets and event streams on every instance.
        self.cut_off_hooks: list[Callable[[str], None]] = []

    def _cut_off(self, profile_id: str) -> None:
        for hook in self.cut_off_hooks:
            hook(profile_id)

    async def _run(self, work: Callable[[Session], T]) -> T:
        def in_session() -> T:
            with self.db.session() as s:
                return work(s)

        return await to_thread.run_sync(in_session)

    async def _read(self, work: Callable[[Connection], T]) -> T:
        def reading() -> T:
            with self.db.read() as conn:
                return work(conn)

        return await to_thread.run_sync(reading)

    def _issue(self, row: repo.ProfileRow, generation: int, session_id: str) -> str:
        return self.signer.issue(row.id, generation, self.clock.now(), session_id)

    # ------------------------------------------------------------------ create, recover
    async def create(self, name: str, device: str = DEVICE) -> IssuedWithCode:
        code = new_recovery_code()
        now = self.clock.utcnow()

        def work(s: Session) -> tuple[repo.ProfileRow, str]:
            row = repo.insert(s, name, hash_recovery_code(code))
            return row, repo.new_session(s, row.id, device, "created", now, now)

        row, sid = await self._run(work)
        return IssuedWithCode(row.id, row.name, self._issue(row, row.generation, sid), code)

    async def recover(
        self, code: str, device: str = DEVICE, current: str | None = None, switch: bool = False
    ) -> IssuedWithCode:
        """Spend ``code`` on this device: a session of its own and a new recovery code. The
        profile's other devices stay signed in; they are told (``recovered_elsewhere``). Where
        ``current``, another profile, is signed in, only when asked to ``switch``
        (app/profiles/switch.py); else the code stays as it was."""
        old_hash = hash_recovery_code(code)
        new_code = new_recovery_code()
        now = self.clock.utcnow()

        def work(s: Session) -> tuple[repo.ProfileRow, str]:
            row = repo.by_recovery_hash(s, old_hash)
            if row is None or not repo.replace_recovery(
                s, row.id, old_hash, hash_recovery_code(new_code)
            ):
                raise BadRecoveryCode("no profile has this recovery code")
            check_switch(s, current, row.id, switch)
            return row, repo.new_session(s, row.id, device, "recovery", now, now)

        row, sid = await self._run(work)
        return IssuedWithCode(row.id, row.name, self._issue(row, row.generation, sid), new_code)

    # ------------------------------------------------------------------ sessions
    async def session(self, token: str | None) -> SessionInfo | None:
        """The session ``token`` opens, or None: forged, expired, of an earlier generation
        (signed out everywhere), its device signed out from My devices, or its profile gone.
        A token from before device sessions gets one (and a fresh token naming it)."""
        claims = self.signer.claims(token)
        if claims is None:
            return None
        now = self.clock.now()
        age = now - claims.issued_at
        if age > self.session_seconds or age < -CLOCK_SKEW_SECONDS:
            return None
        at = self.clock.utcnow()
        # One read (no transaction); a write only when there is one to make.
        found = await self._read(lambda s: repo.signed_in(s, claims.profile_id, claims.session_id))
        if found is None or found.profile.generation != claims.generation:
            return None
        row, new = found.profile, claims.session_id is None
        if new:
            sid = await self._run(lambda s: repo.new_session(s, row.id, DEVICE, "earlier", at))
        else:
            if found.session_id is None or found.revoked_at is not None:
                return None
            sid = found.session_id
            assert found.last_used_at is not None
            if now - _epoch(found.last_used_at) >= TOUCH_SECONDS:
                await self._run(lambda s: repo.touch(s, sid, at))
        renew = new or age >= self.renew_seconds
        fresh = self._issue(row, row.generation, sid) if renew else None
        proved = None if new or found.proved_at is None else aware(found.proved_at)
        return SessionInfo(row.id, row.name, fresh, sid, proved)

    async def profile_for_token(self, token: str | None) -> str | None:
        """The profile a token stands for right now (signature, expiry and generation checked):
        the one check for every door, the HTTP dependencies and the socket handshake alike."""
        info = await self.session(token)
        return None if info is None else info.profile_id

    async def me(self, profile_id: str) -> repo.ProfileRow:
        row = await self._run(lambda s: repo.get(s, profile_id))
        if row is None:
            raise NotFound("no such profile")
        return row

    async def open_session(
        self, profile_id: str, device: str | None = None, how: str = "added"
    ) -> Issued:
        """A new session for one more device of the profile (an e-mail link, a passkey, an
        added device): the profile's other devices keep theirs. ``device``: a name for it, from
        the browser (shown in My devices)."""
        at = self.clock.utcnow()

        def work(s: Session) -> tuple[repo.ProfileRow, str]:
            row = repo.get(s, profile_id)
            if row is None:
                raise NotFound("no such profile")
            return row, repo.new_session(s, row.id, device or DEVICE, how, at, at)

        row, sid = await self._run(work)
        return Issued(row.id, row.name, self._issue(row, row.generation, sid))

    async def sign_out_everywhere(
        self,
        profile_id: str,
        device: str = DEVICE,
        session_id: str = "",
        remove_added_since: datetime | None = None,
    ) -> tuple[Issued, added.Removed]:
        """Cut off every token and device of the profile; this device (``session_id``) gets a
        fresh session that keeps its proof. Every link still open is forgotten. With
        ``remove_added_since`` (which needs a recent proof, checked in the same transaction),
        the passkeys and the address added since then are removed too."""
        at = self.clock.utcnow()

        def work(s: Session) -> tuple[repo.ProfileRow, str, added.Removed] | None:
            me = repo.session_row(s, session_id) if session_id else None
            proved = None if me is None or me.profile_id != profile_id else me.proved_at
            removed = added.Removed(0, False)
            if remove_added_since is not None:
                self.check_proof(None if proved is None else aware(proved))
                removed = added.remove_added_since(s, profile_id, remove_added_since)
            else:
                added.forget_links(s, profile_id)
            if not repo.bump_generation(s, profile_id):
                return None
            repo.revoke_all(s, profile_id, at)
            row = repo.get(s, profile_id)
            assert row is not None
            return row, repo.new_session(s, profile_id, device, "created", at, proved), removed

        found = await self._run(work)
        if found is None:
            raise NotFound("no such profile")
        row, sid, removed = found
        self._cut_off(row.id)
        return Issued(row.id, row.name, self._issue(row, row.generation, sid)), removed

    async def ways_in(self, profile_id: str) -> added.WaysIn:
        """The profile's passkeys and address with when each was added (sign out everywhere)."""
        return await self._run(lambda s: added.ways_in(s, profile_id))

    # ------------------------------------------------------------------ recent proof
    def check_proof(self, proved_at: datetime | None) -> None:
        """Refuse (``recent_proof_required``) unless ``proved_at`` is within ``proof_seconds``."""
        if proved_at is None:
            raise RecentProofRequired("confirm it's you: sign in again or re-enter a way in")
        age = self.clock.now() - proved_at.timestamp()
        if age > self.proof_seconds or age < -CLOCK_SKEW_SECONDS:
            raise RecentProofRequired("confirm it's you: sign in again or re-enter a way in")

    async def prove(self, profile_id: str, session_id: str) -> datetime:
        """This device proved again that it is its person (a passkey of the profile, checked by
        the caller): its changes to the ways in are allowed for ``proof_seconds``."""
        at = self.clock.utcnow()
        if not await self._run(lambda s: repo.prove(s, profile_id, session_id, at)):
            raise NotFound("no such device")
        return at

    async def prove_with_code(self, profile_id: str, session_id: str, code: str) -> datetime:
        """Re-entering the profile's recovery code proves this device (the code is not spent)."""
        at = self.clock.utcnow()
        wanted = hash_recovery_code(code)

        def work(s: Session) -> None:
            if repo.recovery_hash_of(s, profile_id) != wanted:
                raise BadRecoveryCode("this is not the profile's recovery code")
            if not repo.prove(s, profile_id, session_id, at):
                raise NotFound("no such device")

        await self._run(work)
        return at

    # ------------------------------------------------------------------ security notices
    async def notices(self, session_id: str) -> list[notice_rows.Notice]:
        return await self._run(lambda s: notice_rows.for_device(s, session_id, self.notices_kept))

    async def dismiss_notices(self, session_id: str, through: int) -> None:
        await self._run(lambda s: notice_rows.dismiss(s, session_id, through))

    # ------------------------------------------------------------------ My devices
    async def devices(self, profile_id: str) -> list[Device]:
        rows = await self._run(lambda s: repo.sessions_of(s, profile_id))
        return [_device(r) for r in rows]

    async def sign_out_device(self, profile_id: str, session_id: str) -> None:
        """Sign one device out: its tokens stop working and its sockets close, everywhere."""
        at = self.clock.utcnow()
        if not await self._run(lambda s: repo.revoke(s, profile_id, session_id, at)):
            raise NotFound("no such device")
        self._cut_off(session_subject(session_id))

    async def rename_device(self, profile_id: str, session_id: str, name: str | None) -> None:
        """Name one of the profile's signed-in devices (None: back to its browser's name)."""
        if not await self._run(lambda s: repo.rename(s, profile_id, session_id, name)):
            raise NotFound("no such device")

    async def recovered_elsewhere(self, session_id: str) -> Device | None:
        """A recovery of this profile on another device since this one began (or last said it
        was its own doing): shown with "not you? sign out everywhere"."""

        def work(s: Session) -> Device | None:
            me = repo.session_row(s, session_id)
            if me is None:
                return None
            r = repo.recovery_after(s, me)
            if r is None:
                return None
            return Device(r.id, r.device, r.how, aware(r.created_at), aware(r.last_used_at))

        return await self._run(work)

    async def acknowledge(self, session_id: str) -> None:
        at = self.clock.utcnow()
        await self._run(lambda s: repo.acknowledge(s, session_id, at))

    async def device_code(self, profile_id: str) -> tuple[str, datetime]:
        """A code that adds one device to the profile: single-use, for ``DEVICE_CODE_SECONDS``.
        Only its hash is kept."""
        code = new_device_code()
        expires = self.clock.utcnow() + timedelta(seconds=DEVICE_CODE_SECONDS)
        await self._run(lambda s: repo.add_code(s, profile_id, hash_device_code(code), expires))
        return code, expires

    async def add_device(
        self, code: str, device: str = DEVICE, current: str | None = None, switch: bool = False
    ) -> Issued:
        """Spend a device code on this device: a session of its own; the other keeps its own.
        Where ``current``, another profile, is signed in, only when asked to ``switch``
        (app/profiles/switch.py); else the code stays unspent."""
        at = self.clock.utcnow()

        def work(s: Session) -> tuple[repo.ProfileRow, str]:
            profile_id = repo.spend_code(s, hash_device_code(code), at)
            row = None if profile_id is None else repo.get(s, profile_id)
            if row is None:
                raise BadDeviceCode("this code is unknown, used or expired")
            check_switch(s, current, row.id, switch)
            return row, repo.new_session(s, row.id, device, "added", at, at)

        row, sid = await self._run(work)
        return Issued(row.id, row.name, self._issue(row, row.generation, sid))


@dataclass(frozen=True)
class Device:
    id: str
    device: str
    how: str
    created_at: datetime
    last_used_at: datetime
    name: str | None = None  # the person's own name for it


def session_subject(session_id: str) -> str:
    """The key a device's sockets are ended by (the hub's signed-out notice)."""
    return "session:" + session_id


def _device(r: DeviceSession) -> Device:
    return Device(r.id, r.device, r.how, aware(r.created_at), aware(r.last_used_at), r.name)


def _epoch(at: datetime) -> float:
    return aware(at).timestamp()
