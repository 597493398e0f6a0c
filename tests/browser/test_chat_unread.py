"""The chat in sight, in the browser: at 1366x900 the chat is a column beside the board, on screen
without scrolling (and still on screen when the page scrolls), with no sideways scroll; a message
that arrives out of sight counts as unread on the phone's Chat tab, in the chat's heading and in
the tab's title (added to the count of tables waiting: "(2) Crown of Emara") until the chat is
seen; and a message written while a
person was away is in their "Since you looked" summary. Screenshots (desktop and phone, with the
unread counts) land in test-artifacts/ (chat-unread-desktop.png, chat-unread-phone.png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_chat import SEAT_PRESENCE, say, seen
from tests.browser.test_play import ConsoleWatch
from tests.browser.test_since import FAKE_VISIBILITY, SET_HIDDEN, SUMMARY, Api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 30000  # ms: generous, for a loaded machine
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
TITLE = "Crown of Emara"
# The count in front of the title (tables waiting for me, plus unread messages here).
TITLE_COUNT = "() => Number((/^[(](\\d+)[)] /.exec(document.title) || [0, 0])[1])"


def in_view(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"], box
    return box  # type: ignore[no-any-return]


def test_the_chat_is_beside_the_board_and_counts_what_arrives_out_of_sight(
    server: Any, browser: Any, artifacts: Path
) -> None:
    watch = ConsoleWatch()
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bo_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        for ctx in (ann_ctx, bo_ctx):
            ctx.add_init_script("localStorage.setItem('emara.lang', 'en')")
        ann_ctx.add_init_script(FAKE_VISIBILITY)
        api = Api(server)
        tokens = []
        for ctx, name in ((ann_ctx, "Ann"), (bo_ctx, "Bo")):
            r = ctx.request.post(server.url("/api/profiles"), data={"name": name})
            ctx.add_init_script("localStorage.setItem('emara.signed_in', '1')")  # signed in by API
            assert r.ok, r.text()
            tokens.append(r.json()["token"])
        t = api.call(
            "POST", "/api/tables", tokens[0], json={"seats": 2, "options": {"start_player": 0}}
        )
        tid = t["id"]
        api.call(
            "POST", f"/api/tables/{tid}/join", tokens[1], json={"invite_code": t["invite_code"]}
        )
        api.call("POST", f"/api/tables/{tid}/start", tokens[0])

        ann = ann_ctx.new_page()
        watch.attach(ann, "ann")
        ann.goto(server.url(f"/t/{tid}"))
        ann.get_by_test_id("game").wait_for(timeout=WAIT)
        # a desktop: the chat is on screen beside the board, nothing scrolls sideways
        chat = in_view(ann, "[data-testid=chat]")
        in_view(ann, "[data-testid=chat-input]")
        board = ann.locator("section.board").bounding_box()
        assert board is not None and board["x"] + board["width"] <= chat["x"]
        assert chat["y"] < board["y"] + board["height"] and board["y"] < chat["y"] + chat["height"]
        assert ann.evaluate("window.scrollY") == 0
        assert ann.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        # scrolled down to the log, the chat stays on screen
        ann.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        ann.wait_for_function("window.scrollY > 0", timeout=WAIT)
        in_view(ann, "[data-testid=chat-input]")
        ann.evaluate("window.scrollTo(0, 0)")

        say(ann, "hello Bo")  # before Bo comes: history, not news
        bo = bo_ctx.new_page()
        watch.attach(bo, "bo")
        bo.goto(server.url(f"/t/{tid}"))
        bo.get_by_test_id("game").wait_for(timeout=WAIT)
        bo.locator("[data-testid=chat-msg]", has_text="hello Bo").wait_for(
            state="attached", timeout=WAIT
        )
        assert bo.title().endswith(TITLE)
        assert bo.get_by_test_id("tab-chat").get_by_test_id("tab-badge").count() == 0
        assert bo.evaluate(TITLE_COUNT) == 0  # Ann is to act: no table waits for Bo

        # Ann writes; Bo's phone shows the Board's hand tab: the Chat tab and the title count it
        say(ann, "your move, Bo")
        bo_tab = bo.get_by_test_id("tab-chat").get_by_test_id("tab-badge")
        bo_tab.wait_for(timeout=WAIT)
        assert bo_tab.inner_text() == "1"
        bo.wait_for_function(f"() => ({TITLE_COUNT})() === 1", timeout=WAIT)
        assert bo.title() == "(1) " + TITLE
        say(ann, "take your time")
        bo.wait_for_function(f"() => ({TITLE_COUNT})() === 2", timeout=WAIT)
        assert bo_tab.inner_text() == "2"
        assert "2 new" in bo.get_by_test_id("tab-chat").inner_text()
        screenshot(bo, path=str(artifacts / "chat-unread-phone.png"))
        # opening the Chat tab reads them
        bo.get_by_test_id("tab-chat").click()
        seen(bo, "take your time")
        bo.wait_for_function(f"() => ({TITLE_COUNT})() === 0", timeout=WAIT)
        assert bo.title() == TITLE
        assert bo.get_by_test_id("tab-chat").get_by_test_id("tab-badge").count() == 0

        # Ann's page is hidden: what Bo writes counts in her title and in the chat's heading
        waiting = ann.evaluate(TITLE_COUNT)  # her own table waits for her move
        ann.evaluate(SET_HIDDEN, True)
        say(bo, "on it")
        say(bo, "thinking")
        ann.wait_for_function(f"n => ({TITLE_COUNT})() === n + 2", arg=waiting, timeout=WAIT)
        assert ann.title().endswith(TITLE)
        assert ann.get_by_test_id("chat-unread").inner_text() == "2 new"
        screenshot(ann, path=str(artifacts / "chat-unread-desktop.png"))
        # back on the page, with the chat in sight: read
        ann.evaluate(SET_HIDDEN, False)
        ann.wait_for_function(f"n => ({TITLE_COUNT})() === n", arg=waiting, timeout=WAIT)
        assert ann.get_by_test_id("chat-unread").is_hidden()

        # Ann leaves; Bo writes while she is away; back at the table she reads it in the summary
        ann.close()
        bo.locator(SEAT_PRESENCE.format(0) + "[data-state=away]").wait_for(timeout=WAIT)
        say(bo, "back in five")
        ann = ann_ctx.new_page()
        watch.attach(ann, "ann again")
        ann.goto(server.url(f"/t/{tid}"))
        ann.locator(SUMMARY).wait_for(timeout=WAIT)
        part = ann.get_by_test_id("since-chat")
        assert "1 new message in the chat" in part.inner_text()
        assert [x.strip() for x in part.get_by_test_id("since-chat-msg").all_inner_texts()] == [
            "Bo back in five"
        ]
        assert watch.errors == []
    finally:
        ann_ctx.close()
        bo_ctx.close()
