"""Sign out everywhere, in the same step, removes the passkeys and the address added since a
chosen time (it needs a recent proof for that, and without one does nothing at all), lists what
it could remove with when each was added, and forgets every e-mail link still open: what someone
else added with a borrowed session does not sign them straight back in."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player
from tests.mail.conftest import PUBLIC, START, add_address, link_token, settle
from tests.mail.smtpserver import Inbox
from tests.passkeys.authenticator import Authenticator
from tests.passkeys.conftest import add_passkey

PROOF = 300


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat().replace("+00:00", "Z")


def _intruder_adds(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> tuple[Authenticator, Authenticator, dict[str, str]]:
    """Ada's own passkey at START; at START+100 a device signs in with the recovery code and
    adds a passkey and its own address. Ada's key, the intruder's, and the intruder's token."""
    mine = Authenticator(PUBLIC)
    add_passkey(tc, ada, mine, name="Ada's phone")
    clock.advance(100)
    r = tc.post("/api/profiles/recover", json={"code": ada.recovery_code})
    tc.cookies.clear()
    intruder = _auth(r.json()["token"])
    thief = Player(ada.id, ada.name, r.json()["token"], r.json()["recovery_code"])
    key = Authenticator(PUBLIC)
    add_passkey(tc, thief, key, name="Not Ada's")
    add_address(tc, thief, inbox, "thief@example.net")
    return mine, key, intruder


def test_ways_in_lists_every_passkey_and_the_address_with_when_each_was_added(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> None:
    _intruder_adds(tc, ada, inbox, clock)
    r = tc.get("/api/profiles/me/ways-in", headers=ada.headers)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    body = r.json()
    added = [(p["name"], p["added_at"]) for p in body["passkeys"]]
    assert added == [("Ada's phone", _iso(START)), ("Not Ada's", _iso(START + 100))]
    assert body["address"] == {"address": "thief@example.net", "added_at": _iso(START + 100)}
    assert body["default_since"] == _iso(START + 100)  # the newest device's sign-in


def test_sign_out_everywhere_removes_what_was_added_since_the_chosen_time(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> None:
    mine, key, intruder = _intruder_adds(tc, ada, inbox, clock)
    # The intruder asks for a sign-in link and another confirmation link, not yet opened.
    tc.post("/api/email/signin-link", json={"address": "thief@example.net"})
    tc.post("/api/email", json={"address": "thief2@example.net"}, headers=intruder)
    settle(tc)
    signin = link_token(inbox.to("thief@example.net")[-1].text, "signin")
    confirm = link_token(inbox.to("thief2@example.net")[-1].text, "confirm")
    clock.advance(PROOF + 1)
    # Ada's sign-in is old: removing needs her to confirm; without it, nothing at all happens.
    since = {"remove_added_since": _iso(START + 100)}
    r = tc.post("/api/profiles/signout-everywhere", json=since, headers=ada.headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "recent_proof_required"
    assert tc.get("/api/profiles/me", headers=intruder).status_code == 200
    assert len(tc.get("/api/profiles/me/ways-in", headers=ada.headers).json()["passkeys"]) == 2
    # Confirmed with a passkey of her own, then the same request: done, in one step.
    options = tc.post("/api/passkeys/confirm/options", headers=ada.headers).json()
    answer = {"credential": mine.get(options)}
    r = tc.post("/api/passkeys/confirm", json=answer, headers=ada.headers)
    assert r.status_code == 200, r.text
    r = tc.post("/api/profiles/signout-everywhere", json=since, headers=ada.headers)
    assert r.status_code == 200, r.text
    assert r.json()["removed_passkeys"] == 1 and r.json()["removed_address"] is True
    fresh = _auth(r.json()["token"])
    tc.cookies.clear()
    assert tc.get("/api/profiles/me", headers=intruder).status_code == 401
    left = tc.get("/api/profiles/me/ways-in", headers=fresh).json()
    assert [p["name"] for p in left["passkeys"]] == ["Ada's phone"] and left["address"] is None
    # The intruder's passkey, sign-in link and confirmation link sign nobody back in.
    options = tc.post("/api/passkeys/signin/options").json()
    r = tc.post("/api/passkeys/signin", json={"credential": key.get(options)})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_passkey"
    assert tc.post("/api/email/signin", json={"token": signin}).status_code == 404
    assert tc.post("/api/email/confirm", json={"token": confirm}).status_code == 404
    assert tc.get("/api/email", headers=fresh).json()["address"] is None


def test_signing_out_everywhere_without_removing_needs_no_proof_and_keeps_the_ways_in(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> None:
    _intruder_adds(tc, ada, inbox, clock)
    clock.advance(PROOF + 1)
    r = tc.post("/api/profiles/signout-everywhere", json={}, headers=ada.headers)
    assert r.status_code == 200 and r.json()["removed_passkeys"] == 0
    assert r.json()["removed_address"] is False
    fresh = _auth(r.json()["token"])
    assert len(tc.get("/api/profiles/me/ways-in", headers=fresh).json()["passkeys"]) == 2
    # A naive time is refused (which zone would it be?), and changes nothing.
    r = tc.post(
        "/api/profiles/signout-everywhere",
        json={"remove_added_since": "2027-01-15T08:00:00"},
        headers=fresh,
    )
    assert r.status_code == 422
    # So is a number (seconds of which epoch?).
    r = tc.post("/api/profiles/signout-everywhere", json={"remove_added_since": 0}, headers=fresh)
    assert r.status_code == 422
    assert tc.get("/api/profiles/me", headers=fresh).status_code == 200
