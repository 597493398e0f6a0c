"""The table chat and presence in the browser: two people talk at a table (one on a 390x844
phone page), a `<script>` or `<img onerror>` message shows as text and runs nothing, the mute
hides a seat's messages for the one who muted (and holds on the server), and the other's presence
dot goes from present to away when their page closes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_play import VIEWPORT, ConsoleWatch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 30000  # ms: generous, for a loaded machine
PHONE = {"width": 390, "height": 844}
SCRIPT = "<script>window.__pwned = 1</script>"
IMG = '<img src=x onerror="window.__pwned = 2">'
FAILED = "[data-testid=chat-msg][data-state=failed]"
LAST_SETTLED = """() => {
  const last = [...document.querySelectorAll('[data-testid=chat-msg]')].pop();
  return !!last && last.dataset.state !== 'sending';
}"""
SEAT_PRESENCE = "[data-testid=chat-seats] [data-testid=presence][data-seat='{}']"


def texts(page: Any) -> list[str]:
    return list(page.locator("[data-testid=chat-msg] .chat-text").all_text_contents())


def say(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()
    page.locator("[data-testid=chat-msg][data-state=sent]", has_text=text).first.wait_for(
        timeout=WAIT
    )


def seen(page: Any, text: str) -> None:
    page.locator("[data-testid=chat-msg] .chat-text", has_text=text).first.wait_for(timeout=WAIT)


def test_two_people_chat_mute_and_see_each_other_come_and_go(
    server: Any, browser: Any, artifacts: Path
) -> None:
    watch = ConsoleWatch()
    host_ctx = browser.new_context(viewport=VIEWPORT)
    guest_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        watch.attach(host, "host")
        watch.attach(guest, "guest")
        host.goto(server.url("/"))
        host.get_by_test_id("name-input").fill("Ann")
        host.get_by_test_id("create-table").click()
        invite = host.get_by_test_id("invite-link").input_value()
        guest.goto(invite)
        guest.get_by_test_id("name-input").fill("Bob")
        guest.get_by_test_id("join-table").click()
        # the lobby shows Bob here, from the presence of his socket
        host.locator(
            "[data-testid=lobby-seat][data-seat='1'] [data-testid=presence][data-state=present]"
        ).wait_for(timeout=WAIT)
        host.wait_for_function(
            "() => !document.querySelector('[data-testid=start-game]')?.disabled", timeout=WAIT
        )
        host.get_by_test_id("start-game").click()
        host.get_by_test_id("game").wait_for(timeout=WAIT)
        guest.get_by_test_id("game").wait_for(timeout=WAIT)
        # on the phone the chat is a tab of its own
        guest.get_by_test_id("tab-chat").click()

        # talk, both ways
        say(guest, "hi Ann")
        seen(host, "hi Ann")
        host.locator(SEAT_PRESENCE.format(1) + "[data-state=present]").wait_for(timeout=WAIT)
        say(host, SCRIPT)
        say(host, IMG)
        seen(guest, SCRIPT)
        seen(guest, IMG)
        for page in (host, guest):
            assert page.evaluate("() => window.__pwned") is None
            assert page.locator("[data-testid=chat] img, [data-testid=chat] script").count() == 0
        assert texts(guest) == ["hi Ann", SCRIPT, IMG]

        # on the phone the input is in view, focused, above the fold
        box_input = guest.get_by_test_id("chat-input")
        box_input.scroll_into_view_if_needed()
        box_input.focus()
        box = box_input.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        screenshot(guest, path=str(artifacts / "chat-phone.png"))

        # Ann mutes Bob: his messages leave her page (not his), and the mute is kept for her
        host.locator("[data-testid=chat-mute][data-seat='1']").click()
        host.locator("[data-testid=chat-mute][data-seat='1'][aria-pressed=true]").wait_for(
            timeout=WAIT
        )
        assert "hi Ann" not in texts(host)
        say(guest, "muted words")
        say(host, "after the mute")  # stored after Bob's: her page has had his by now
        seen(guest, "after the mute")
        assert texts(host) == [SCRIPT, IMG, "after the mute"]
        assert texts(guest) == ["hi Ann", SCRIPT, IMG, "muted words", "after the mute"]
        chat_api = host.url.split("/t/", 1)[0] + "/api/tables/" + host.url.split("/t/", 1)[1]
        res = host.context.request.get(chat_api.split("?", 1)[0] + "/chat")
        assert res.ok and res.json()["muted"] == [1]
        screenshot(host, path=str(artifacts / "chat-host.png"), full_page=True)

        # a flood: past the limit a message shows as not sent, in words, with a way to retry
        for n in range(60):
            host.get_by_test_id("chat-input").fill(f"flood {n}")
            host.get_by_test_id("chat-send").click()
            host.wait_for_function(LAST_SETTLED, timeout=WAIT)
            if host.locator(FAILED).count():
                break
        failed = host.locator(FAILED)
        assert failed.count() == 1
        assert "Too many messages" in failed.inner_text()
        assert failed.get_by_test_id("chat-retry").is_visible()

        # Bob's page closes: Ann sees him away, with the time
        guest_ctx.close()
        away = host.locator(SEAT_PRESENCE.format(1) + "[data-state=away]")
        away.wait_for(timeout=WAIT)
        assert "away since" in away.inner_text()
        screenshot(host, path=str(artifacts / "chat-away.png"), full_page=True)
        assert watch.errors == []
    finally:
        host_ctx.close()
        guest_ctx.close()
