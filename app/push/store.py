"""Push subscriptions: stored per profile and endpoint, bounded; an endpoint is stored only once
judged safe to send to (app/push/endpoint.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from anyio import to_thread
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.db.models import PushSubscription
from app.db.session import Database
from app.errors import AppError
from app.push.schemas import SubscriptionIn
from app.tables import published


class TooManySubscriptions(AppError):
    status = 409
    code = "too_many_subscriptions"


# Judges a new subscription's endpoint (app/push/delivery.py ``Delivery.admit``): raises
# BadPushEndpoint when it may not be stored.
Admit = Callable[[str], Awaitable[None]]


@dataclass(frozen=True)
class Target:
    id: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str


class PushStore:
    def __init__(self, db: Database, per_profile: int, admit: Admit) -> None:
        self.db = db
        self.per_profile = per_profile
        self.admit = admit

    async def subscribe(self, profile_id: str, sub: SubscriptionIn) -> dict[str, str]:
        await self.admit(sub.endpoint)  # https, port 443, a known push service, public addresses
        return await to_thread.run_sync(self._subscribe, profile_id, sub)

    def _subscribe(self, profile_id: str, sub: SubscriptionIn) -> dict[str, str]:
        with self.db.session() as s:
            row = s.scalar(
                select(PushSubscription).where(PushSubscription.endpoint == sub.endpoint)
            )
            if row is None or row.profile_id != profile_id:
                count = s.scalar(
                    select(func.count())
                    .select_from(PushSubscription)
                    .where(PushSubscription.profile_id == profile_id)
                )
                if int(count or 0) >= self.per_profile:
                    raise TooManySubscriptions(
                        f"at most {self.per_profile} devices per profile", limit=self.per_profile
                    )
            if row is None:
                row = PushSubscription(endpoint=sub.endpoint, profile_id=profile_id)
                s.add(row)
            # A device that changed hands (another profile signed in) now belongs to this one.
            row.profile_id = profile_id
            row.p256dh = sub.keys.p256dh
            row.auth = sub.keys.auth
            row.lang = sub.lang
            row.active = True
            s.flush()
            return {"endpoint": row.endpoint, "lang": row.lang}

    async def unsubscribe(self, profile_id: str, endpoint: str) -> bool:
        return await to_thread.run_sync(self._unsubscribe, profile_id, endpoint)

    def _unsubscribe(self, profile_id: str, endpoint: str) -> bool:
        with self.db.session() as s:
            done = s.execute(
                delete(PushSubscription).where(
                    PushSubscription.profile_id == profile_id,
                    PushSubscription.endpoint == endpoint,
                )
            )
            return int(done.rowcount) > 0  # type: ignore[attr-defined]

    def targets(self, profile_id: str) -> list[Target]:
        with self.db.session() as s:
            rows = s.scalars(
                select(PushSubscription).where(
                    PushSubscription.profile_id == profile_id, PushSubscription.active.is_(True)
                )
            )
            return [Target(r.id, r.endpoint, r.p256dh, r.auth, r.lang) for r in rows]

    def remove(self, target_id: int) -> None:
        with self.db.session() as s:
            s.execute(delete(PushSubscription).where(PushSubscription.id == target_id))


def listening_at(s: Session, table_id: str) -> bool:
    """Whether anyone sitting at the table has a push subscription."""
    found = s.scalar(
        select(PushSubscription.id)
        .where(PushSubscription.profile_id.in_(published.seated_ids(table_id)))
        .limit(1)
    )
    return found is not None
