"""Suspensions: an operator suspends a profile (python -m app.admin profiles suspend). Its
sessions end at once, on every device and instance (as "sign out everywhere" ends them); while
suspended it may sign in and play its running games, but it cannot open tables (nor rematches)
or invite anyone: those answer ``403 suspended`` and change nothing. Lifting the suspension
gives all of it back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.clock import Clock
from app.db.models import Profile
from app.db.session import Database
from app.errors import NotFound, Suspended
from app.profiles import repository as repo

REASON_MAX = 200


def check(s: Session, profile_id: str) -> None:
    """Refuse (``suspended``) when an operator suspended the profile: in the transaction of what
    it would do (opening a table, an invitation), so a suspension is never raced past."""
    at = s.scalar(select(Profile.suspended_at).where(Profile.id == profile_id))
    if at is not None:
        raise Suspended("this profile is suspended: it cannot open tables or invite for now")


@dataclass(frozen=True)
class Suspension:
    profile_id: str
    suspended_at: datetime | None
    reason: str | None


class Suspensions:
    """Suspend and lift, on a database; ``cut_off`` hears (after the commit) of a profile whose
    every session was ended (the hub's signed-out notice, relayed to every instance)."""

    def __init__(self, db: Database, clock: Clock, cut_off: Callable[[str], None]) -> None:
        self.db = db
        self.clock = clock
        self.cut_off = cut_off

    def suspend(self, profile_id: str, reason: str = "") -> Suspension:
        at = self.clock.utcnow()
        with self.db.session() as s:
            p = s.get(Profile, profile_id)
            if p is None or p.deleted_at is not None:
                raise NotFound("no such profile")
            p.suspended_at = at
            p.suspended_reason = reason.strip()[:REASON_MAX] or None
            s.flush()
            repo.bump_generation(s, profile_id)
            repo.revoke_all(s, profile_id, at)
            out = Suspension(p.id, at, p.suspended_reason)
        self.cut_off(profile_id)
        return out

    def lift(self, profile_id: str) -> Suspension:
        with self.db.session() as s:
            result = s.execute(
                update(Profile)
                .where(Profile.id == profile_id, Profile.deleted_at.is_(None))
                .values(suspended_at=None, suspended_reason=None)
            )
            if getattr(result, "rowcount", 0) != 1:
                raise NotFound("no such profile")
        return Suspension(profile_id, None, None)
