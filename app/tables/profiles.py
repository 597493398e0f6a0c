"""Profiles as the table service has always offered them (create, recover, look up).

Kept here so that ``app.state.service.create_profile`` / ``recover`` / ``profile`` keep working
for the profile endpoints, the request dependencies and the socket.
"""

from __future__ import annotations

import secrets
from typing import Any

from anyio import to_thread
from sqlalchemy import select

from app.auth import TokenSigner, hash_recovery_code, new_recovery_code
from app.db.models import Profile
from app.db.session import Database
from app.errors import BadRecoveryCode


class Profiles:
    def __init__(self, db: Database, signer: TokenSigner) -> None:
        self.db = db
        self.signer = signer

    async def create_profile(self, name: str) -> dict[str, Any]:
        return await to_thread.run_sync(self._create_profile, name)

    def _create_profile(self, name: str) -> dict[str, Any]:
        code = new_recovery_code()
        with self.db.session() as s:
            p = Profile(
                id=secrets.token_urlsafe(9), name=name, recovery_hash=hash_recovery_code(code)
            )
            s.add(p)
        return {
            "id": p.id,
            "name": p.name,
            "token": self.signer.issue(p.id),
            "recovery_code": code,
        }

    async def recover(self, code: str) -> dict[str, Any]:
        return await to_thread.run_sync(self._recover, code)

    def _recover(self, code: str) -> dict[str, Any]:
        with self.db.session() as s:
            p = s.scalar(select(Profile).where(Profile.recovery_hash == hash_recovery_code(code)))
            if p is None:
                raise BadRecoveryCode("no profile has this recovery code")
            return {"id": p.id, "name": p.name, "token": self.signer.issue(p.id)}

    async def profile(self, profile_id: str) -> dict[str, Any] | None:
        return await to_thread.run_sync(self._profile, profile_id)

    def _profile(self, profile_id: str) -> dict[str, Any] | None:
        with self.db.session() as s:
            p = s.get(Profile, profile_id)
            return None if p is None else {"id": p.id, "name": p.name}
