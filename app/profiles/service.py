"""Profiles and sessions: create, recover with a one-time code, who am I, sign out everywhere.

Session rules (docs/protocol.md "Sessions"):

- a token is good for ``session_seconds`` after its issue time, and only while it names the
  profile's current ``generation`` (kept in the database, so every instance agrees at once);
- a good token older than ``renew_seconds`` is answered with a fresh one (renewal by use), so a
  person who keeps playing is never signed out, and a token left unused runs out;
- recovering and signing out everywhere add one to the generation: every earlier token, on
  every device, is refused from then on;
- a recovery code works once: using it replaces it by a new code, returned to be shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from anyio import to_thread
from sqlalchemy.orm import Session

from app.auth import TokenSigner, hash_recovery_code, new_recovery_code
from app.clock import Clock
from app.db.session import Database
from app.errors import BadRecoveryCode, NotFound
from app.profiles import repository as repo

T = TypeVar("T")

# Instances' clocks may differ a little: a token issued up to this far "in the future" is fine.
CLOCK_SKEW_SECONDS = 300.0


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


class ProfileService:
    def __init__(
        self,
        db: Database,
        signer: TokenSigner,
        clock: Clock,
        session_seconds: float,
        renew_seconds: float,
    ) -> None:
        self.db = db
        self.signer = signer
        self.clock = clock
        self.session_seconds = session_seconds
        self.renew_seconds = renew_seconds
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

    def _issue(self, row: repo.ProfileRow, generation: int) -> str:
        return self.signer.issue(row.id, generation, self.clock.now())

    # ------------------------------------------------------------------ create, recover
    async def create(self, name: str) -> IssuedWithCode:
        code = new_recovery_code()
        row = await self._run(lambda s: repo.insert(s, name, hash_recovery_code(code)))
        return IssuedWithCode(row.id, row.name, self._issue(row, row.generation), code)

    async def recover(self, code: str) -> IssuedWithCode:
        """Spend ``code``: a fresh token, a new recovery code, every earlier token cut off."""
        old_hash = hash_recovery_code(code)
        new_code = new_recovery_code()

        def work(s: Session) -> repo.ProfileRow:
            row = repo.by_recovery_hash(s, old_hash)
            if row is None or not repo.replace_recovery(
                s, row.id, old_hash, hash_recovery_code(new_code)
            ):
                raise BadRecoveryCode("no profile has this recovery code")
            return repo.ProfileRow(row.id, row.name, row.generation + 1)

        row = await self._run(work)
        self._cut_off(row.id)
        return IssuedWithCode(row.id, row.name, self._issue(row, row.generation), new_code)

    # ------------------------------------------------------------------ sessions
    async def session(self, token: str | None) -> SessionInfo | None:
        """The session ``token`` opens, or None: forged, expired, or of an earlier generation
        (signed out everywhere, recovered elsewhere), or its profile is gone."""
        claims = self.signer.claims(token)
        if claims is None:
            return None
        row = await self._run(lambda s: repo.get(s, claims.profile_id))
        if row is None or row.generation != claims.generation:
            return None
        now = self.clock.now()
        age = now - claims.issued_at
        if age > self.session_seconds or age < -CLOCK_SKEW_SECONDS:
            return None
        fresh = self._issue(row, row.generation) if age >= self.renew_seconds else None
        return SessionInfo(row.id, row.name, fresh)

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

    async def open_session(self, profile_id: str, device: str | None = None) -> Issued:
        """A new session for one more device of the profile (an e-mail link, a passkey, an
        added device): the profile's other devices keep theirs. ``device``: a name for it, from
        the browser (shown in My devices)."""
        row = await self.me(profile_id)
        return Issued(row.id, row.name, self._issue(row, row.generation))

    async def sign_out_everywhere(self, profile_id: str) -> Issued:
        """Cut off every token of the profile; this device gets a fresh one."""

        def work(s: Session) -> repo.ProfileRow | None:
            if not repo.bump_generation(s, profile_id):
                return None
            return repo.get(s, profile_id)

        row = await self._run(work)
        if row is None:
            raise NotFound("no such profile")
        self._cut_off(row.id)
        return Issued(row.id, row.name, self._issue(row, row.generation))
