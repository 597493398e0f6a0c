"""Web Push plugged in: VAPID keys, subscriptions, the sender (a background subscriber of the
hub, which also hears the deadline sweeper's hand-overs)."""

from __future__ import annotations

from app.parts import Parts
from app.plug import Core, Feature, Work
from app.push import endpoints
from app.push.delivery import PushLimits
from app.push.endpoint import PushPolicy
from app.push.keys import PublicKey, load_vapid, public_key
from app.push.sender import PushSender
from app.tables.sweeper import Sweeper


def plug(core: Core, parts: Parts) -> Feature:
    s = core.settings
    vapid = load_vapid(s.vapid_private_key, s.data_dir)
    push = PushSender(
        core.db,
        core.hub,
        vapid,
        s.vapid_subject,
        core.clock,
        PushPolicy(
            allowed_hosts=() if s.push_allow_any_host else tuple(s.push_hosts),
            allow_loopback_http=s.push_allow_loopback_http,
        ),
        PushLimits(
            workers=s.push_workers,
            queue=s.push_queue,
            deadline=s.push_deadline_seconds,
            max_reply=s.push_max_reply_bytes,
            attempts=s.push_attempts,
            retry_seconds=s.push_retry_seconds,
        ),
        s.push_subscriptions_per_profile,
    )
    parts.get(Sweeper).listeners.append(push.timed_out)
    return Feature(
        "push",
        parts={
            "push": push,
            "push_store": push.store,
            "push_public_key": PublicKey(public_key(vapid)),
        },
        routers=[endpoints.router],
        work=[Work("push", push.start, push.stop)],
    )
