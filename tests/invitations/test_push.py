"""A rematch reaches the invited person's browsers by Web Push (decrypted by a push service on
loopback that checks the VAPID JWT), in each device's language, opening My games."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import new_player
from tests.invitations.helpers import finished_game
from tests.push.pushservice import PushService
from tests.push.test_push import pushy, service, tc

__all__ = ["pushy", "service", "tc"]  # the push tests' fixtures


def test_a_rematch_invitation_reaches_the_invited_browsers(
    tc: TestClient, pushy: Any, service: PushService
) -> None:
    ada, ben = new_player(tc, "Ada"), new_player(tc, "Ben")
    sub = service.browser("Ben").subscription("de")
    assert tc.post("/api/push/subscriptions", json=sub, headers=ben.headers).status_code == 201
    old = finished_game(tc, [ada, ben])
    tc.portal.call(pushy.state.push.idle)  # type: ignore[attr-defined]
    before = len(service.received)
    r = tc.post(f"/api/tables/{old}/rematch", headers=ada.headers)
    assert r.status_code == 200
    new = r.json()["table_id"]
    tc.portal.call(pushy.state.invitation_push.idle)  # type: ignore[attr-defined]
    (told,) = service.received[before:]
    assert told == (
        "Ben",
        {
            "title": "Ada möchte eine Revanche",
            "body": "Tisch von Ada: sag zu oder ab in Meine Spiele.",
            "url": "/games",
            "tag": f"emara-invitation-{new}",
            "kind": "invitation",
            "params": {"table_id": new, "kind": "rematch", "inviter": "Ada"},
        },
    )
    assert service.refused == []
