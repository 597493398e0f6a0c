"""The browser tests' context pool (tests/browser/contexts.py): a context a test closes comes
back to the next test as good as new, with its HTTP cache kept; one it cannot reset is closed."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 800, "height": 600}
STORED = """() => [localStorage.getItem("pool-test"), document.cookie, sessionStorage.length]"""
FETCHED_AGAIN = """() => performance.getEntriesByType("resource")
    .filter((e) => e.name.includes("/js/") && e.transferSize > e.encodedBodySize)
    .map((e) => e.name)"""


def test_a_closed_context_comes_back_empty_but_warm(server: Any, browser: Any) -> None:
    options = {"viewport": VIEWPORT, "locale": "cs-CZ"}  # options of this test alone
    first = browser.new_context(**options)
    page = first.new_page()
    page.goto(server.url("/rules"))
    page.get_by_test_id("rules-page").wait_for()
    page.evaluate(
        """() => { localStorage.setItem("pool-test", "x"); sessionStorage.setItem("s", "1");
                   document.cookie = "pool=1; path=/"; }"""
    )
    first.grant_permissions(["clipboard-read"], origin=server.base)
    assert page.evaluate(STORED) == ["x", "pool=1", 1]
    first.close()
    first.close()  # a second close is no second return to the pool

    again = browser.new_context(**options)
    other = browser.new_context(**options)
    assert again is first and other is not first  # each context is held by one test at a time
    assert [p.url for p in again.pages] == ["about:blank"] and again.cookies() == []
    kept = again.new_page()
    assert kept is page and kept.url == "about:blank"  # the page is kept, on a blank document
    page.goto(server.url("/rules"))
    page.get_by_test_id("rules-page").wait_for()
    assert page.evaluate(STORED) == [None, "", 0]
    # its history begins at the blank document: nothing of the test before
    assert page.evaluate("() => history.length") == 2
    permission = "async () => (await navigator.permissions.query({name: 'clipboard-read'})).state"
    assert page.evaluate(permission) == "prompt"
    # The client's modules came from the HTTP cache (or a 304 without a body), not over again.
    assert page.evaluate(FETCHED_AGAIN) == []
    again.close()
    other.close()


def test_the_init_scripts_of_a_closed_context_are_gone(browser: Any) -> None:
    options = {"viewport": VIEWPORT, "locale": "de-DE"}
    ctx = browser.new_context(**options)
    ctx.add_init_script("window.leftOver = 1")
    page = ctx.new_page()
    page.goto("data:text/html,<p>x")
    assert page.evaluate("() => window.leftOver") == 1
    ctx.close()
    again = browser.new_context(**options)
    assert again is ctx
    page = again.new_page()
    page.goto("data:text/html,<p>x")
    assert page.evaluate("() => window.leftOver") is None
    again.close()


def test_a_context_whose_page_installed_the_fake_clock_is_closed_for_real(browser: Any) -> None:
    options = {"viewport": VIEWPORT, "locale": "fr-FR"}
    ctx = browser.new_context(**options)
    page = ctx.new_page()
    page.clock.install()
    page.goto("data:text/html,<p>x")
    ctx.close()
    assert browser.new_context(**options) is not ctx


def test_a_page_with_a_listener_of_its_own_is_not_kept(browser: Any) -> None:
    options = {"viewport": VIEWPORT, "locale": "it-IT"}
    ctx = browser.new_context(**options)
    page = ctx.new_page()
    heard: list[str] = []
    page.on("console", lambda m: heard.append(m.text))
    page.goto("data:text/html,<p>x")
    ctx.close()
    assert page.is_closed()
    again = browser.new_context(**options)
    assert again is ctx and again.pages == []
    fresh = again.new_page()
    assert fresh is not page
    fresh.goto("data:text/html,<script>console.log('hi')</script>")
    assert heard == []
    again.close()
