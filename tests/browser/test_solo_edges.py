"""Solo and profile edges in the browser: a solo table has no table chat and no "Notify me in
this tab" (nobody to talk to, always your turn); /solo's high-score box starts at the value last
played, with its best score, and its rules link says where it goes; /profile signed out offers
the "Who are you?" panel; presence times follow the page's language. Screenshots:
test-artifacts/solo-*.png, profile-signed-out-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.modules import own_modules
from tests.browser.shots import screenshot
from tests.browser.test_endscreen import play_to_end
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, api, people, sign_up

pytestmark = [pytest.mark.browser]


def test_a_solo_table_has_no_chat_and_no_tab_notice_and_solo_starts_at_the_last_value(
    server: Any, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP) as (page,):
        page.add_init_script("localStorage.setItem('emara.lang', 'en')")
        token = sign_up(page, server, "Sola")["token"]
        body = {"mode": "high_score", "building_start": 40}
        started = api(server, token, "POST", "/api/solo", json=body)
        tid = started["table_id"]
        page.goto(server.url(f"/t/{tid}"))
        page.get_by_test_id("turn-indicator").wait_for(timeout=WAIT)
        assert page.get_by_test_id("tab-notify").count() == 0
        assert page.locator(".chat").count() == 0
        layout = page.get_by_test_id("table-layout")
        assert "solo" in (layout.get_attribute("class") or "")
        # the game takes the width the chat had
        page.wait_for_function(
            """() => document.querySelector('[data-testid=game]').getBoundingClientRect().width
                 >= document.querySelector('.table-layout').getBoundingClientRect().width - 40""",
            timeout=WAIT,
        )
        screenshot(page, path=str(artifacts / "solo-table-desktop.png"))
        page.set_viewport_size(PHONE)
        page.get_by_test_id("tab-log").wait_for(timeout=WAIT)
        assert page.get_by_test_id("tab-chat").count() == 0
        assert page.locator("[role=tab]").count() == 4
        page.get_by_test_id("tab-log").press("End")  # the last tab is the log now
        assert page.get_by_test_id("tab-log").get_attribute("aria-selected") == "true"
        screenshot(page, path=str(artifacts / "solo-table-phone.png"))

        final = play_to_end(server, tid, [token], seed=3)
        score = final["view"]["outcome"]["players"][0]["score"]
        page.set_viewport_size(DESKTOP)
        page.goto(server.url("/solo"))
        box = page.get_by_test_id("solo-building-start")
        box.wait_for(timeout=WAIT)
        assert box.input_value() == "40"
        assert page.locator(".solo-best").inner_text() == f"Best score at 40 BP: {score}"
        link = page.get_by_test_id("solo-rules-link")
        assert link.inner_text() == "Rules of the solo game"
        assert link.inner_text() != page.locator("h1").inner_text()
        assert link.get_attribute("href") == "/rules#solo"
        screenshot(page, path=str(artifacts / "solo-page-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        screenshot(page, path=str(artifacts / "solo-page-phone.png"), full_page=True)


def test_the_profile_page_signed_out_asks_who_you_are(
    server: Any, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP) as (page,):
        page.add_init_script("localStorage.setItem('emara.lang', 'en')")
        page.goto(server.url("/profile"))
        panel = page.get_by_test_id("whoami")
        panel.wait_for(timeout=WAIT)
        assert panel.get_by_test_id("whoami-code").is_visible()
        screenshot(page, path=str(artifacts / "profile-signed-out-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)
        screenshot(page, path=str(artifacts / "profile-signed-out-phone.png"), full_page=True)
        page.set_viewport_size(DESKTOP)
        page.locator("#name-input").fill("Pia")
        page.get_by_test_id("whoami-new-go").click()
        page.get_by_test_id("profile-page").wait_for(timeout=WAIT)
        assert "Pia" in page.get_by_test_id("profile-page").inner_text()
        assert page.url.endswith("/profile")


@pytest.mark.parametrize(("lang", "want"), [("de", "23:35"), ("cs", "23:35"), ("en", "11:35")])
def test_presence_times_follow_the_pages_language(
    server: Any, browser: Any, lang: str, want: str
) -> None:
    with people(browser, DESKTOP) as (page,):
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=WAIT)
        text = page.evaluate(
            own_modules("""async (lang) => {
                 const i18n = await import('/js/i18n.js');
                 await i18n.setLang(lang);
                 const { presenceText } = await import('/js/presence.js');
                 const at = new Date();
                 at.setHours(23, 35, 0, 0);
                 const out = presenceText({ present: false, last_seen: at.toISOString() });
                 await i18n.setLang('en');
                 return out;
               }"""),
            lang,
        )
        assert want in text, text
        assert ("PM" in text) == (lang == "en"), text
