"""Confirm it's you, in Chromium with a virtual authenticator: on a device whose sign-in is old,
adding a passkey opens the "Confirm it's you" dialog (a wrong recovery code is said in words,
the right one lets the passkey be added on the same click's retry), removing one is confirmed
with the passkey itself; another device is told "a passkey was added — not you?" (the name shown
as text) and its "sign out everywhere" dialog lists the passkey as added since, checked, and
removes it in the same step. Screens at 1366×900 and 390×844.

The server is a process of its own on localhost (WebAuthn wants a secure context and a host
name); a sign-in "long ago" is written into its database, as time passing would leave it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.test_a11y import axe_violations
from tests.browser.test_passkeys import AUTHENTICATOR
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, shoot

pytestmark = [pytest.mark.browser]

HOSTILE = '<img src=x onerror="window.__owned=1">Key'


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[tuple[str, Path]]:
    """The app on its own SQLite database: its base URL at localhost and the database file."""
    from app.db.migrate import upgrade

    tmp = tmp_path_factory.mktemp("stepup-server")
    db = tmp / "emara.db"
    upgrade(f"sqlite:///{db}")
    log = tmp / "server.log"
    srv = ServerProcess(f"sqlite:///{db}", log, extra_args=["--log-level", "warning"])
    base = f"http://localhost:{srv.port}"
    srv.env = {"EMARA_PUBLIC_URL": base, "EMARA_ALLOWED_ORIGINS": base}
    with srv:
        yield base, db


def age_every_proof(db: Path) -> None:
    """Every device of every profile signed in (proved itself) long ago."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE device_session SET proved_at = '2000-01-01 00:00:00.000000'")


def device(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, str]:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return context, page, added["authenticatorId"]


def create_profile(page: Any, base: str) -> dict[str, Any]:
    page.goto(f"{base}/")
    page.get_by_test_id("create-table").wait_for(timeout=WAIT)
    return page.evaluate(  # type: ignore[no-any-return]
        """async () => { const r = await fetch('/api/profiles', { method: 'POST',
             headers: { 'Content-Type': 'application/json' },
             body: JSON.stringify({ name: 'Ada' }) });
           localStorage.setItem('emara.signed_in', '1'); return r.json(); }"""
    )


def add_this_device(laptop: Any, phone: Any, base: str) -> None:
    """The phone signs in with a code the laptop shows (My devices)."""
    code = laptop.evaluate(
        """async () => (await (await fetch('/api/profiles/me/devices/code',
             { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }))
           .json()).code"""
    )
    phone.goto(f"{base}/")
    phone.get_by_test_id("create-table").wait_for(timeout=WAIT)
    status = phone.evaluate(
        """async (code) => { const r = await fetch('/api/profiles/devices/add', { method: 'POST',
             headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
           localStorage.setItem('emara.signed_in', '1'); return r.status; }""",
        code,
    )
    assert status == 200


def no_serious_violations(page: Any) -> None:
    assert axe_violations(page) == []


def test_confirm_its_you_then_told_elsewhere_and_removed_while_signing_out_everywhere(
    local: tuple[str, Path], browser: Any, artifacts: Path
) -> None:
    base, db = local
    laptop_ctx, laptop, _ = device(browser, DESKTOP)
    phone_ctx, phone, _ = device(browser, PHONE)
    try:
        ada = create_profile(laptop, base)
        add_this_device(laptop, phone, base)
        age_every_proof(db)

        # Adding a passkey on the laptop: "Confirm it's you" first.
        laptop.goto(f"{base}/profile")
        section = laptop.get_by_test_id("passkeys-section")
        section.get_by_test_id("passkeys-none").wait_for(timeout=WAIT)
        laptop.get_by_test_id("passkey-name").fill(HOSTILE)
        laptop.get_by_test_id("passkey-add").click()
        dialog = laptop.get_by_test_id("stepup-dialog")
        dialog.wait_for(timeout=WAIT)
        assert dialog.get_by_test_id("stepup-passkey").is_visible()
        shoot(laptop, artifacts, "stepup-confirm-desktop")
        no_serious_violations(laptop)
        laptop.get_by_test_id("stepup-code").fill("0000-0000-0000-0000")
        laptop.get_by_test_id("stepup-go").click()
        wrong = laptop.get_by_test_id("stepup-error").filter(has_text="not your profile")
        wrong.wait_for(timeout=WAIT)
        shoot(laptop, artifacts, "stepup-wrong-code-desktop")
        laptop.get_by_test_id("stepup-code").fill(ada["recovery_code"])
        laptop.get_by_test_id("stepup-go").click()
        dialog.wait_for(state="detached", timeout=WAIT)
        section.get_by_test_id("passkey").filter(has_text="onerror").wait_for(timeout=WAIT)
        assert laptop.get_by_test_id("error").count() == 0
        assert "<img" in section.get_by_test_id("passkey").inner_text()  # a name is text

        # The same dialog on a phone-sized screen, and removing with the passkey itself.
        age_every_proof(db)
        laptop.set_viewport_size(PHONE)
        laptop.get_by_test_id("passkey-remove").click()
        dialog.wait_for(timeout=WAIT)
        shoot(laptop, artifacts, "stepup-confirm-phone")
        assert laptop.evaluate("document.documentElement.scrollWidth <= innerWidth")
        laptop.get_by_test_id("stepup-cancel").click()
        dialog.wait_for(state="detached", timeout=WAIT)
        assert section.get_by_test_id("passkey").count() == 1  # cancelled: nothing changed
        assert laptop.get_by_test_id("error").count() == 0
        laptop.get_by_test_id("passkey-remove").click()
        dialog.get_by_test_id("stepup-passkey").click()
        dialog.wait_for(state="detached", timeout=WAIT)
        section.get_by_test_id("passkeys-none").wait_for(timeout=WAIT)
        laptop.set_viewport_size(DESKTOP)

        # Added again (the laptop's proof is recent), then the phone's next visit is told.
        laptop.get_by_test_id("passkey-name").fill(HOSTILE)
        laptop.get_by_test_id("passkey-add").click()
        section.get_by_test_id("passkey").wait_for(timeout=WAIT)
        assert laptop.get_by_test_id("stepup-dialog").count() == 0
        phone.goto(f"{base}/games")
        notice = phone.get_by_test_id("security-notice")
        notice.wait_for(timeout=WAIT)
        items = notice.get_by_test_id("security-notice-item")
        assert items.count() == 2  # added, then added again (the removal is no notice)
        assert all(HOSTILE in text for text in items.all_inner_texts())
        assert phone.evaluate("window.__owned") is None
        shoot(phone, artifacts, "stepup-notice-phone")
        assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
        no_serious_violations(phone)

        # "Not you?": the dialog lists the passkey, checked for removal, and does it all at once.
        notice.get_by_test_id("security-notice-sign-out-everywhere").click()
        out = phone.get_by_test_id("signout-all-dialog")
        out.wait_for(timeout=WAIT)
        assert out.get_by_test_id("signout-all-remove").is_checked()
        (item,) = out.get_by_test_id("signout-all-item").all()
        assert item.get_attribute("data-removed") == "1" and HOSTILE in item.inner_text()
        shoot(phone, artifacts, "stepup-signout-all-phone")
        no_serious_violations(phone)
        phone.set_viewport_size(DESKTOP)
        shoot(phone, artifacts, "stepup-signout-all-desktop")
        age_every_proof(db)  # removing needs a proof: the recovery code once more
        out.get_by_test_id("signout-all-go").click()
        phone.get_by_test_id("stepup-dialog").wait_for(timeout=WAIT)
        phone.get_by_test_id("stepup-code").fill(ada["recovery_code"])
        phone.get_by_test_id("stepup-go").click()
        out.wait_for(state="detached", timeout=WAIT)
        notice.wait_for(state="detached", timeout=WAIT)
        ways = phone.evaluate("async () => (await fetch('/api/profiles/me/ways-in')).json()")
        assert ways["passkeys"] == []
        status = laptop.evaluate("async () => (await fetch('/api/profiles/me')).status")
        assert status == 401  # the laptop is signed out
    finally:
        laptop_ctx.close()
        phone_ctx.close()
