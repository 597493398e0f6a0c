"""An e-mail sign-in link opened in a browser signed in as another profile: refused with
``409 signed_in_as_other`` (both names), nothing changed and the link still good; sent again with
``"switch": true`` it signs the browser in as the link's profile. The same profile, or no valid
session, goes through at once."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import Player
from tests.mail.conftest import add_address, link_token, settle
from tests.mail.smtpserver import Inbox

COOKIE = "emara_token"


def sign_in_link(tc: TestClient, inbox: Inbox, address: str) -> str:
    tc.cookies.clear()
    r = tc.post("/api/email/signin-link", json={"address": address})
    assert r.status_code == 202, r.text
    settle(tc)
    return link_token(inbox.to(address)[-1].text, "signin")


def browser_of(tc: TestClient, who: Player) -> None:
    tc.cookies.clear()
    tc.cookies.set(COOKIE, who.token)


def me(tc: TestClient) -> str:
    r = tc.get("/api/profiles/me")
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def test_a_link_of_another_profile_asks_first_and_switches_only_when_told(
    tc: TestClient, ada: Player, ben: Player, inbox: Inbox
) -> None:
    add_address(tc, ada, inbox, "ada@example.org")
    token = sign_in_link(tc, inbox, "ada@example.org")
    browser_of(tc, ben)
    r = tc.post("/api/email/signin", json={"token": token})
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["code"] == "signed_in_as_other"
    assert error["signed_in_as"] == "Ben" and error["link_profile"] == "Ada"
    assert set(error) == {"code", "message", "signed_in_as", "link_profile"}
    assert "ada@example.org" not in r.text and "set-cookie" not in r.headers
    assert me(tc) == ben.id  # still Ben
    # Told to switch: the same link (not spent by the refusal) signs this browser in as Ada.
    r = tc.post("/api/email/signin", json={"token": token, "switch": True})
    assert r.status_code == 200 and r.json() == {"id": ada.id, "name": "Ada"}
    assert COOKIE in r.cookies
    assert me(tc) == ada.id
    # Spent now, once.
    browser_of(tc, ben)
    r = tc.post("/api/email/signin", json={"token": token, "switch": True})
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_email_link"


def test_the_same_profile_or_no_valid_session_goes_through_at_once(
    tc: TestClient, ada: Player, inbox: Inbox
) -> None:
    add_address(tc, ada, inbox, "ada@example.org")
    token = sign_in_link(tc, inbox, "ada@example.org")
    browser_of(tc, ada)
    r = tc.post("/api/email/signin", json={"token": token})
    assert r.status_code == 200 and r.json()["id"] == ada.id
    token = sign_in_link(tc, inbox, "ada@example.org")
    tc.cookies.set(COOKIE, "forged.token")
    r = tc.post("/api/email/signin", json={"token": token})
    assert r.status_code == 200 and r.json()["id"] == ada.id
    assert me(tc) == ada.id


def test_a_wrong_link_is_still_a_wrong_link_for_a_signed_in_browser(
    tc: TestClient, ben: Player
) -> None:
    browser_of(tc, ben)
    r = tc.post("/api/email/signin", json={"token": "x" * 43})
    assert r.status_code == 404 and r.json()["error"]["code"] == "bad_email_link"
    r = tc.post("/api/email/signin", json={"token": "x" * 43, "switch": 1})
    assert r.status_code == 422
    assert me(tc) == ben.id
