"""E-mail addresses: confirmed by a single-use, short-lived link; hostile addresses and header
injection refused with typed errors; nothing possible without an SMTP server; never shown to
another player; a sign-in link signs a new device in once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock import ManualClock
from tests.conftest import Player, make_settings, new_player, wipe
from tests.mail.conftest import PUBLIC, add_address, link_token, mail_settings, settle
from tests.mail.smtpserver import Inbox
from tests.pace.conftest import open_game


def test_a_confirmation_link_adds_the_address_once_and_runs_out(
    tc: TestClient, ada: Player, inbox: Inbox, clock: ManualClock
) -> None:
    assert tc.get("/api/email", headers=ada.headers).json() == {
        "enabled": True, "address": None, "pending": None, "notify": False, "lang": "en",
    }  # fmt: skip
    r = tc.post(
        "/api/email", json={"address": " Ada@Example.ORG ", "lang": "de"}, headers=ada.headers
    )
    assert r.status_code == 202 and r.json()["pending"] == "ada@example.org"
    assert r.json()["address"] is None
    settle(tc)
    (mail,) = inbox.received
    assert mail.rcpt == ["ada@example.org"]
    assert mail.subject == "Bestätige deine E-Mail-Adresse für Crown of Emara"
    assert mail.message["List-Unsubscribe"] is None  # asked for, not a notification
    token = link_token(mail.text, "confirm")
    assert f"{PUBLIC}/email/confirm#{token}" in mail.text  # the token rides in the fragment
    r = tc.post("/api/email/confirm", json={"token": token})
    assert r.status_code == 200 and r.json() == {"done": True}
    me = tc.get("/api/email", headers=ada.headers).json()
    assert me["address"] == "ada@example.org" and me["notify"] is True and me["lang"] == "de"
    # Once only.
    r = tc.post("/api/email/confirm", json={"token": token})
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_email_link"
    # A new link runs out: 30 minutes.
    tc.post("/api/email", json={"address": "ada@example.net"}, headers=ada.headers)
    settle(tc)
    late = link_token(inbox.received[-1].text, "confirm")
    clock.advance(31 * 60)
    r = tc.post("/api/email/confirm", json={"token": late})
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_email_link"
    assert tc.get("/api/email", headers=ada.headers).json()["address"] == "ada@example.org"
    # Removed (after confirming it's her: her sign-in is over 5 minutes old): gone, and nothing
    # more is sent to it.
    r = tc.post("/api/profiles/me/confirm", json={"code": ada.recovery_code}, headers=ada.headers)
    assert r.status_code == 200, r.text
    r = tc.delete("/api/email", headers=ada.headers)
    assert r.status_code == 200 and r.json()["address"] is None


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("ada@example.org\r\nBcc: all@example.com", "control_characters"),
        ("ada@example.org\nSubject: hi", "control_characters"),
        ("ada@example.org\u2028", "control_characters"),
        ("a" * 250 + "@example.org", "too_long"),
        ("ada@example.org, eve@example.com", "several_addresses"),
        ("ada@example.org;eve@example.com", "several_addresses"),
        ("ada@eve@example.org", "several_addresses"),
        ("Ada <ada@example.org>", "several_addresses"),
        ("<ada@example.org>", "malformed"),
        ('"ada"@example.org', "malformed"),
        ("ada@[127.0.0.1]", "malformed"),
        ("ada@localhost", "malformed"),
        ("ada@example.123", "malformed"),
        ("ada..x@example.org", "malformed"),
        ("@example.org", "malformed"),
        ("ada@", "malformed"),
    ],
)
def test_hostile_addresses_and_header_injection_are_refused_with_a_reason(
    tc: TestClient, ada: Player, inbox: Inbox, address: str, reason: str
) -> None:
    r = tc.post("/api/email", json={"address": address}, headers=ada.headers)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_email_address" and error["reason"] == reason
    r = tc.post("/api/email/signin-link", json={"address": address})
    assert r.status_code == 422 and r.json()["error"]["reason"] == reason
    settle(tc)
    assert inbox.received == []
    assert tc.get("/api/email", headers=ada.headers).json()["pending"] is None


def test_a_sign_in_link_signs_a_new_device_in_once_and_the_others_stay(
    tc: TestClient, ada: Player, inbox: Inbox
) -> None:
    add_address(tc, ada, inbox, "ada@example.org")
    # A new device (no cookie) asks; an unknown address gets the same answer and no mail.
    for address in ("nobody@example.org", "ADA@example.org"):
        r = tc.post("/api/email/signin-link", json={"address": address, "lang": "cs"})
        assert r.status_code == 202 and r.json() == {"done": True}
    settle(tc)
    assert inbox.to("nobody@example.org") == []
    mail = inbox.to("ada@example.org")[-1]
    assert mail.subject == "Sign in to Crown of Emara"  # the profile's language (en)
    token = link_token(mail.text, "signin")
    r = tc.post("/api/email/signin", json={"token": token})
    assert r.status_code == 200 and r.json() == {"id": ada.id, "name": "Ada"}
    assert "emara_token" in r.cookies
    assert "token" not in r.json()
    me = tc.get("/api/profiles/me")  # the cookie of the new device
    assert me.status_code == 200 and me.json()["id"] == ada.id
    tc.cookies.clear()
    assert tc.get("/api/profiles/me", headers=ada.headers).status_code == 200  # still signed in
    r = tc.post("/api/email/signin", json={"token": token})
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_email_link"
    r = tc.post("/api/email/signin", json={"token": "x" * 43})
    assert r.status_code == 404


def test_addresses_are_never_shown_to_other_players(
    tc: TestClient, ada: Player, ben: Player, inbox: Inbox
) -> None:
    add_address(tc, ada, inbox, "ada.secret@example.org")
    t = open_game(tc, [ada, ben], {"mode": "turn", "hours": 24})
    seen = [
        tc.get(f"/api/tables/{t['id']}", headers=ben.headers).text,
        tc.get(f"/api/tables/{t['id']}/game", headers=ben.headers).text,
        tc.get("/api/me/tables", headers=ben.headers).text,
        tc.get("/api/me/people", headers=ben.headers).text,
        tc.get("/api/email", headers=ben.headers).text,
        tc.get(f"/api/tables/{t['id']}/invitations", headers=ben.headers).text,
    ]
    assert all("ada.secret" not in text for text in seen)
    assert "Ada" in seen[3]  # Ben sees Ada among his people, by name only
    # Ada's address is hers to see.
    assert tc.get("/api/email", headers=ada.headers).json()["address"] == "ada.secret@example.org"


def test_mails_a_person_asks_for_are_rate_limited(
    database_url: str, tmp_path: Path, inbox: Inbox
) -> None:
    from app.main import create_app

    wipe(database_url)
    settings = make_settings(
        database_url,
        tmp_path,
        **mail_settings(inbox),
        rate_email_send="2/hour",
        rate_email_signin_strangers="2/hour",
    )
    with TestClient(create_app(settings)) as c:
        ada = new_player(c, "Ada")
        for n in range(2):
            r = c.post("/api/email", json={"address": f"a{n}@example.org"}, headers=ada.headers)
            assert r.status_code == 202
        r = c.post("/api/email", json={"address": "a9@example.org"}, headers=ada.headers)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        # Per mailbox too: another caller cannot flood one address with sign-in links.
        for _ in range(3):
            r = c.post("/api/email/signin-link", json={"address": "victim@example.org"})
        assert r.status_code == 429
        c.app.state.db.dispose()  # type: ignore[attr-defined]


def test_without_an_smtp_server_nothing_is_sent_and_the_answer_says_so(
    database_url: str, tmp_path: Path
) -> None:
    from app.main import create_app

    wipe(database_url)
    with TestClient(create_app(make_settings(database_url, tmp_path))) as c:
        ada = new_player(c, "Ada")
        assert c.get("/api/email", headers=ada.headers).json()["enabled"] is False
        r = c.post("/api/email", json={"address": "ada@example.org"}, headers=ada.headers)
        assert r.status_code == 409 and r.json()["error"]["code"] == "email_unavailable"
        r = c.post("/api/email/signin-link", json={"address": "ada@example.org"})
        assert r.status_code == 409
        app: Any = c.app
        assert app.state.mailer not in app.state.hub.background
        app.state.db.dispose()
