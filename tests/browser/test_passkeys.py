"""Passkeys in Chromium, with a virtual authenticator (DevTools protocol, CTAP2, resident keys,
user verified): a passkey added from the profile page, the device signed out, then signed back
in from the "Who are you?" panel of /solo with the passkey alone.

WebAuthn needs a secure context and an rp id the browser accepts: an IP address is not one, so
this module runs its own server whose public URL is http://localhost:PORT and opens every page
there (loopback over http is a secure context)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.test_a11y import axe_violations
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, shoot

pytestmark = [pytest.mark.browser]

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[str]:
    """The app on its own SQLite database; yields its base URL at localhost."""
    from app.db.migrate import upgrade

    tmp = tmp_path_factory.mktemp("passkeys-server")
    db_url = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db_url)
    srv = ServerProcess(db_url, tmp / "server.log", extra_args=["--log-level", "warning"])
    base = f"http://localhost:{srv.port}"
    srv.env = {"EMARA_PUBLIC_URL": base, "EMARA_ALLOWED_ORIGINS": base}
    with srv:
        yield base


def me(page: Any) -> Any:
    return page.evaluate(
        """async () => { const r = await fetch('/api/profiles/me');
             return r.ok ? r.json() : r.status; }"""
    )


def test_a_passkey_added_on_the_profile_page_signs_the_device_back_in(
    local: str, browser: Any, artifacts: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        authenticator_id = added["authenticatorId"]

        page.goto(f"{local}/")
        page.get_by_test_id("create-table").wait_for(timeout=WAIT)
        ada = page.evaluate(
            """async () => { const r = await fetch('/api/profiles', { method: 'POST',
                 headers: { 'Content-Type': 'application/json' },
                 body: JSON.stringify({ name: 'Ada' }) });
               localStorage.setItem('emara.signed_in', '1'); return r.json(); }"""
        )
        page.goto(f"{local}/profile")
        section = page.get_by_test_id("passkeys-section")
        section.get_by_test_id("passkeys-none").wait_for(timeout=WAIT)
        page.get_by_test_id("passkey-name").fill("Laptop")
        page.get_by_test_id("passkey-add").click()
        section.get_by_test_id("passkey").filter(has_text="Laptop").wait_for(timeout=WAIT)
        assert page.get_by_test_id("error").count() == 0
        held = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})
        (credential,) = held["credentials"]
        assert credential["isResidentCredential"] is True and credential["rpId"] == "localhost"
        shoot(page, artifacts, "passkeys-profile-desktop")
        page.set_viewport_size(PHONE)
        shoot(page, artifacts, "passkeys-profile-phone")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert axe_violations(page) == []

        # Signed out on this device.
        page.evaluate(
            """async () => { await fetch('/api/profiles/signout', { method: 'POST' });
                 localStorage.removeItem('emara.signed_in'); }"""
        )
        assert me(page) == 401
        page.goto(f"{local}/solo")
        panel = page.get_by_test_id("whoami")
        panel.wait_for(timeout=WAIT)
        button = panel.get_by_test_id("whoami-passkey")
        assert button.is_visible()
        shoot(page, artifacts, "passkeys-whoami-phone")
        page.set_viewport_size(DESKTOP)
        shoot(page, artifacts, "passkeys-whoami-desktop")
        button.click()
        panel.wait_for(state="detached", timeout=WAIT)
        assert me(page) == {
            "id": ada["id"],
            "name": "Ada",
            "recovered_elsewhere": None,
            "guide": None,
            "notices": [],
        }
        assert page.get_by_test_id("error").count() == 0
        shoot(page, artifacts, "passkeys-signed-in-desktop")
        # The passkey's last use shows on the profile page.
        page.goto(f"{local}/profile")
        page.get_by_test_id("passkey").filter(has_text="Laptop").wait_for(timeout=WAIT)
        assert "not used yet" not in page.get_by_test_id("passkey").inner_text()
    finally:
        context.close()
