"""Push subscriptions: stored per profile and endpoint, bounded, checked against SSRF."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from anyio import to_thread
from sqlalchemy import delete, func, select

from app.db.models import PushSubscription
from app.db.session import Database
from app.errors import AppError
from app.push.schemas import SubscriptionIn


class BadPushEndpoint(AppError):
    status = 422
    code = "bad_push_endpoint"


class TooManySubscriptions(AppError):
    status = 409
    code = "too_many_subscriptions"


LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


@dataclass(frozen=True)
class Target:
    id: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str


def check_endpoint(url: str, allow_loopback_http: bool) -> None:
    """A push endpoint is an https URL of a public host; plain http only to loopback, and only
    when the settings allow it (tests). Anything else is refused (no requests to inner hosts)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        _ = parts.port  # a malformed port raises
    except ValueError as exc:
        raise BadPushEndpoint("the push endpoint is not a URL") from exc
    if parts.username or parts.password or not host:
        raise BadPushEndpoint("the push endpoint is not a plain URL")
    if parts.scheme == "http" and allow_loopback_http and host in LOOPBACK_HOSTS:
        return
    if parts.scheme != "https":
        raise BadPushEndpoint("a push endpoint must be an https URL")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
            raise BadPushEndpoint("a push endpoint must be a public host") from None
        return
    if not address.is_global:
        raise BadPushEndpoint("a push endpoint must be a public host")


class PushStore:
    def __init__(self, db: Database, per_profile: int, allow_loopback_http: bool) -> None:
        self.db = db
        self.per_profile = per_profile
        self.allow_loopback_http = allow_loopback_http

    async def subscribe(self, profile_id: str, sub: SubscriptionIn) -> dict[str, str]:
        check_endpoint(sub.endpoint, self.allow_loopback_http)
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
