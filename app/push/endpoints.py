"""Web Push routes: the public key, subscribe, unsubscribe."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from app.errors import NotFound
from app.parts import provided
from app.profiles.deps import ProfileId
from app.push.keys import PublicKey
from app.push.schemas import PushKeyOut, SubscriptionIn, SubscriptionOut, UnsubscribeIn
from app.push.store import PushStore

router = APIRouter(prefix="/api/push", tags=["push"])


push_store = provided(PushStore)


Store = Annotated[PushStore, Depends(push_store)]


@router.get("/key", response_model=PushKeyOut)
async def key(key: Annotated[PublicKey, Depends(provided(PublicKey))]) -> PushKeyOut:
    """The VAPID public key: ``applicationServerKey`` of ``pushManager.subscribe``."""
    return PushKeyOut(key=key.text)


@router.post("/subscriptions", status_code=201, response_model=SubscriptionOut)
async def subscribe(body: SubscriptionIn, profile_id: ProfileId, store: Store) -> dict[str, str]:
    """Store this browser's PushSubscription for my profile (again: its keys and language are
    updated)."""
    return await store.subscribe(profile_id, body)


@router.delete("/subscriptions", status_code=204)
async def unsubscribe(body: UnsubscribeIn, profile_id: ProfileId, store: Store) -> Response:
    """Opt out: this endpoint gets no more messages."""
    if not await store.unsubscribe(profile_id, body.endpoint):
        raise NotFound("no such subscription")
    return Response(status_code=204)
