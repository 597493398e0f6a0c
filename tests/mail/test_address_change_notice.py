"""A change of address is told: the old address gets a mail saying so (in its language, without
naming the new one), and the profile's other devices see a notice on their next visit; adding,
changing and removing the address need a recent proof on the asking device, and an e-mail
sign-in link is one."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player
from tests.mail.conftest import add_address, link_token, settle
from tests.mail.smtpserver import Inbox

PROOF = 300


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _phone(tc: TestClient, who: Player) -> dict[str, str]:
    """A second device of ``who``, signed in by a code from My devices."""
    code = tc.post("/api/profiles/me/devices/code", headers=who.headers).json()["code"]
    r = tc.post("/api/profiles/devices/add", json={"code": code})
    assert r.status_code == 200, r.text
    tc.cookies.clear()
    return _auth(r.json()["token"])


def test_a_change_is_mailed_to_the_old_address_and_shown_on_the_other_devices(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> None:
    phone = _phone(tc, ada)
    clock.advance(5)
    add_address(tc, ada, inbox, "ada@example.org", lang="de")
    # The first address: a notice on the phone, no mail but the confirmation.
    (notice,) = tc.get("/api/profiles/me", headers=phone).json()["notices"]
    assert notice["kind"] == "address_added" and notice["detail"] == "ada@example.org"
    assert len(inbox.received) == 1
    # Changed from the laptop: the old address is told, in its language, of the change only.
    clock.advance(5)
    add_address(tc, ada, inbox, "someone@example.net")
    settle(tc)
    told = inbox.to("ada@example.org")[-1]
    assert told.subject == "Deine E-Mail-Adresse bei Crown of Emara wurde geändert"
    assert "am Freitag, 15. Januar 2027 um 8:00 (UTC)" in told.text and "Hallo Ada," in told.text
    assert "someone@example.net" not in told.text
    assert told.message["List-Unsubscribe"] is None
    # The phone sees both, newest first; the laptop that made them sees neither.
    shown = tc.get("/api/profiles/me", headers=phone).json()["notices"]
    kinds = [(n["kind"], n["detail"]) for n in shown]
    assert kinds == [
        ("address_changed", "someone@example.net"),
        ("address_added", "ada@example.org"),
    ]
    assert tc.get("/api/profiles/me", headers=ada.headers).json()["notices"] == []
    # The same address confirmed again changes nothing and tells nobody.
    before = len(inbox.received)
    add_address(tc, ada, inbox, "someone@example.net")
    settle(tc)
    assert len(inbox.received) == before + 1  # the confirmation link only
    assert len(tc.get("/api/profiles/me", headers=phone).json()["notices"]) == 2


def test_adding_changing_and_removing_the_address_need_a_recent_proof(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> None:
    add_address(tc, ada, inbox, "ada@example.org")
    clock.advance(PROOF + 1)
    sent = len(inbox.received)
    r = tc.post("/api/email", json={"address": "thief@example.net"}, headers=ada.headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "recent_proof_required"
    r = tc.delete("/api/email", headers=ada.headers)
    assert r.status_code == 403 and r.json()["error"]["code"] == "recent_proof_required"
    settle(tc)
    assert len(inbox.received) == sent  # no link went anywhere
    status = tc.get("/api/email", headers=ada.headers).json()
    assert status["address"] == "ada@example.org" and status["pending"] is None
    # Settings that are not a way in stay open.
    r = tc.patch("/api/email", json={"notify": False}, headers=ada.headers)
    assert r.status_code == 200
    # Confirmed with the recovery code: allowed.
    tc.post("/api/profiles/me/confirm", json={"code": ada.recovery_code}, headers=ada.headers)
    assert tc.delete("/api/email", headers=ada.headers).json()["address"] is None


def test_an_e_mail_sign_in_link_is_a_proof(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> None:
    add_address(tc, ada, inbox, "ada@example.org")
    clock.advance(PROOF + 1)
    assert tc.post("/api/passkeys/register/options", headers=ada.headers).status_code == 403
    tc.post("/api/email/signin-link", json={"address": "ada@example.org"})
    settle(tc)
    token = link_token(inbox.to("ada@example.org")[-1].text, "signin")
    r = tc.post("/api/email/signin", json={"token": token})
    assert r.status_code == 200
    assert tc.post("/api/passkeys/register/options").status_code == 200  # the link's cookie
