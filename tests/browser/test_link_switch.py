"""A link of another profile opened in a signed-in browser, in Chromium: the page says who is
signed in and whose link it is (names as text) and asks; "Stay" keeps the profile signed in here
(the link still works), "Switch" signs in as the link's profile. An add-a-device link at 1366×900
and an e-mail sign-in link at 390×844; screenshots go to test-artifacts/, axe finds no serious
violation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.devtools.stack import ServerProcess
from tests.browser import test_reach as reach
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, api, people, shoot, sign_up
from tests.mail.smtpserver import Inbox

pytestmark = [pytest.mark.browser]

# The app sending to an SMTP server on loopback, as the e-mail browser tests start it.
inbox = reach.inbox
mail_server = reach.mail_server

LINK = re.compile(r"/email/(confirm|signin)#([A-Za-z0-9_.-]+)")
TAG_NAME = "<b>Bo</b>"  # a name that looks like markup: shown as these very characters


def new_profile(server: ServerProcess, name: str) -> dict[str, Any]:
    r = httpx.post(server.url("/api/profiles"), json={"name": name}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def who(page: Any) -> str:
    return str(page.evaluate("fetch('/api/profiles/me').then((r) => r.json()).then((p) => p.id)"))


def mailed_link(box: Inbox, address: str, kind: str, count: int) -> str:
    found = LINK.findall(box.wait_for(address, count=count).text)
    assert [k for k, _ in found] == [kind]
    return str(found[0][1])


def test_an_add_device_link_of_another_profile_asks_and_stay_keeps_the_profile(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP) as (page,):
        ann = sign_up(page, server, "Annika")
        bob = new_profile(server, TAG_NAME)
        code = api(server, bob["token"], "POST", "/api/profiles/me/devices/code")
        page.goto(code["link"].replace(code["link"].split("/add-device")[0], server.base))
        page.get_by_test_id("add-device-go").click()
        dialog = page.get_by_test_id("switch-dialog")
        dialog.wait_for(timeout=WAIT)
        assert page.get_by_test_id("switch-here").inner_text() == "You are signed in as Annika."
        assert page.get_by_test_id("switch-there").inner_text() == (
            f"This link signs in as {TAG_NAME}."
        )
        assert dialog.locator("b").count() == 0  # the name is text, not markup
        assert page.get_by_test_id("switch-go").inner_text() == f"Switch to {TAG_NAME}"
        assert page.get_by_test_id("switch-stay").inner_text() == "Stay as Annika"
        assert page.evaluate("document.activeElement.dataset.testid") == "switch-stay"
        shoot(page, artifacts, "link-switch-device-desktop")
        assert axe_violations(page) == []
        # Stay: still Annika, the code unspent.
        page.get_by_test_id("switch-stay").click()
        dialog.wait_for(state="detached", timeout=WAIT)
        result = page.get_by_test_id("add-device-result")
        result.filter(has_text="still signed in as Annika").wait_for(timeout=WAIT)
        assert who(page) == ann["id"]
        # Asked again, Switch: now the link's profile.
        page.get_by_test_id("add-device-go").click()
        page.get_by_test_id("switch-go").click()
        page.wait_for_url("**/games", timeout=WAIT)
        page.get_by_test_id("profile-name").filter(has_text=TAG_NAME).wait_for(timeout=WAIT)
        assert who(page) == bob["id"]


def test_an_email_sign_in_link_of_another_profile_asks_and_switch_signs_in(
    mail_server: ServerProcess, browser: Any, inbox: Inbox, artifacts: Path
) -> None:
    ada = new_profile(mail_server, "Adéla")
    api(mail_server, ada["token"], "POST", "/api/email", json={"address": "adela@example.org"})
    confirm = mailed_link(inbox, "adela@example.org", "confirm", 1)
    assert httpx.post(mail_server.url("/api/email/confirm"), json={"token": confirm}).is_success
    with people(browser, PHONE) as (phone,):
        ben = sign_up(phone, mail_server, "Benedikt")
        r = httpx.post(
            mail_server.url("/api/email/signin-link"), json={"address": "adela@example.org"}
        )
        assert r.status_code == 202
        token = mailed_link(inbox, "adela@example.org", "signin", 2)
        phone.goto(mail_server.url(f"/email/signin#{token}"))
        phone.get_by_test_id("email-link-go").click()
        dialog = phone.get_by_test_id("switch-dialog")
        dialog.wait_for(timeout=WAIT)
        assert phone.get_by_test_id("switch-here").inner_text() == "You are signed in as Benedikt."
        assert phone.get_by_test_id("switch-there").inner_text() == "This link signs in as Adéla."
        assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shoot(phone, artifacts, "link-switch-email-phone")
        assert axe_violations(phone) == []
        phone.get_by_test_id("switch-stay").click()
        phone.get_by_test_id("email-link-result").filter(has_text="Benedikt").wait_for(timeout=WAIT)
        assert who(phone) == ben["id"]
        phone.get_by_test_id("email-link-go").click()
        phone.get_by_test_id("switch-go").click()
        phone.get_by_test_id("email-signed-in").wait_for(timeout=WAIT)
        phone.get_by_test_id("profile-name").filter(has_text="Adéla").wait_for(timeout=WAIT)
        assert who(phone) == ada["id"]
        shoot(phone, artifacts, "link-switch-email-phone-switched")
