"""Passkeys on the address opened by IP (http://127.0.0.1:PORT, the browser tests' server):
Chromium refuses an IP as the relying party, so instead of buttons that fail the page says why
and links to the same page on localhost; the profile page, the "Who are you?" panel and the
"Confirm it's you" dialog offer no passkey button there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.modules import own_modules
from tests.browser.shots import screenshot
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, sign_up

pytestmark = [pytest.mark.browser]


def test_on_an_ip_address_the_passkey_section_says_why_and_links_to_localhost(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    assert server.base.startswith("http://127.0.0.1:")
    local = f"http://localhost:{server.port}"
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
        try:
            page = context.new_page()
            sign_up(page, server, "Ada")
            for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(size)
                page.goto(server.url("/profile"))
                section = page.get_by_test_id("passkeys-section")
                note = section.get_by_test_id("passkeys-blocked")
                note.wait_for(timeout=WAIT)
                assert "127.0.0.1" in note.inner_text()
                link = note.get_by_test_id("passkeys-localhost")
                assert link.get_attribute("href") == f"{local}/profile"
                assert local in link.inner_text()
                assert section.get_by_test_id("passkey-add").count() == 0
                note.scroll_into_view_if_needed()
                screenshot(page, path=str(artifacts / f"passkeys-ip-{size_name}-{scheme}.png"))
            # "Confirm it's you": the recovery code only, no passkey button that would fail.
            page.evaluate(
                own_modules(
                    "() => { import('/js/stepup.js').then((m) => { m.confirmItsYou(); }); }"
                )
            )
            dialog = page.get_by_test_id("stepup-dialog")
            dialog.wait_for(timeout=WAIT)
            assert dialog.get_by_test_id("stepup-passkey").count() == 0
        finally:
            context.close()
    # Signed out, the "Who are you?" panel says so too instead of "Sign in with a passkey".
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(server.url("/solo"))
        panel = page.get_by_test_id("whoami")
        panel.get_by_test_id("passkeys-blocked").wait_for(timeout=WAIT)
        assert panel.get_by_test_id("whoami-passkey").count() == 0
        href = panel.get_by_test_id("passkeys-localhost").get_attribute("href")
        assert href == f"{local}/solo"
        screenshot(page, path=str(artifacts / "passkeys-ip-whoami-phone.png"))
    finally:
        context.close()
