"""The contracts of Web Push: a browser's PushSubscription (strict), the public key."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.strict import Strict

B64URL = r"^[A-Za-z0-9_-]+={0,2}$"


class SubscriptionKeys(Strict):
    p256dh: str = Field(min_length=80, max_length=200, pattern=B64URL)
    auth: str = Field(min_length=16, max_length=100, pattern=B64URL)


class SubscriptionIn(Strict):
    """``PushSubscription.toJSON()`` of the browser, plus the language of the messages."""

    endpoint: str = Field(min_length=10, max_length=1024)
    keys: SubscriptionKeys
    expirationTime: int | None = None
    lang: Literal["cs", "de", "en"] = "en"


class UnsubscribeIn(Strict):
    endpoint: str = Field(min_length=10, max_length=1024)


class PushKeyOut(BaseModel):
    key: str  # the VAPID public key (applicationServerKey), base64url


class SubscriptionOut(BaseModel):
    endpoint: str
    lang: str


class PushMessageOut(BaseModel):
    """The JSON payload of a push (what the service worker receives)."""

    title: str
    body: str
    url: str
    tag: str
    kind: Literal["your_turn", "seat_timed_out", "game_over"]
    params: dict[str, object]
