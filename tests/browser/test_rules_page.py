"""The rules reference (/rules) in every language: each number on the page is the value at the
data path its element names, no other digit appears, and a deep link lands on its section."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_phone import DESKTOP, PHONE, WAIT
from tests.rulesref.paths import resolve, shown

pytestmark = [pytest.mark.browser]

DATA = json.loads(
    (Path(__file__).resolve().parents[2] / "app/rules/data/components.json").read_text("utf-8")
)
SHOTS = Path("/work/shots/rulespage")

# Every [data-rule] element (path, format, text), and the page's text with them left out.
READ = """() => {
  const rules = [...document.querySelectorAll('[data-rule]')].map(
    (e) => [e.dataset.rule, e.dataset.ruleFormat || '', e.textContent]);
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('[data-rule], script, style').forEach((e) => e.remove());
  const svgText = [...copy.querySelectorAll('svg')].map((s) => s.textContent).join(' ');
  return { rules, text: copy.innerText + ' ' + svgText };
}"""


def open_rules(page: Any, server: Any, lang: str, path: str = "/rules") -> None:
    page.add_init_script(f"localStorage.setItem('emara.lang', '{lang}')")
    page.goto(server.url(path))
    page.get_by_test_id("rules-page").wait_for(timeout=WAIT)


@pytest.mark.parametrize("lang", ["en", "cs", "de"])
def test_every_number_comes_from_the_data(server: Any, browser: Any, lang: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        open_rules(page, server, lang)
        found = page.evaluate(READ)
        assert len(found["rules"]) > 200
        wrong = [
            (path, text)
            for path, fmt, text in found["rules"]
            if text != shown(resolve(DATA, path), fmt == "signed")
        ]
        assert wrong == []
        assert re.findall(r".{0,30}\d.{0,30}", found["text"]) == []
        # no data key shows as such (the words stand for it): no snake_case identifier anywhere
        every = page.evaluate("() => document.body.innerText")
        assert re.findall(r".{0,30}\b[a-z]+_[a-z_]+\b.{0,30}", every) == []
        rows = page.eval_on_selector_all(
            ".rules-markers tbody th", "els => els.map(e => e.textContent)"
        )
        assert rows and all(re.fullmatch(r"\d(-\d)?", r) for r in rows), rows
        sections = page.eval_on_selector_all("section[id]", "els => els.map(e => e.id)")
        for anchor in (
            "turn",
            "locations",
            "market",
            "deliveries",
            "favor-tokens",
            "titles",
            "craftsmen",
            "advisors",
            "events",
            "round-end",
            "scoring",
            "solo",
            "variants",
            *DATA["countryside"],
            *DATA["town"],
        ):
            assert anchor in sections
        for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            SHOTS.mkdir(parents=True, exist_ok=True)
            screenshot(page, path=str(SHOTS / f"rules-{lang}-{size_name}.png"))
            screenshot(page, path=str(SHOTS / f"rules-{lang}-{size_name}-full.png"), full_page=True)
            page.locator(".rules-markers").first.scroll_into_view_if_needed()
            screenshot(page, path=str(SHOTS / f"rules-{lang}-{size_name}-markers.png"))
    finally:
        ctx.close()


def test_a_deep_link_lands_on_its_section(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        open_rules(page, server, "en", "/rules#advisors")
        focused = "() => document.activeElement && document.activeElement.id === 'advisors'"
        page.wait_for_function(focused, timeout=WAIT)
        top = page.evaluate("() => document.getElementById('advisors').getBoundingClientRect().top")
        assert 0 <= top < 50
        # a contents link moves the focus and the address, not the page
        page.locator(".rules-toc a[href='#scoring']").click()
        page.wait_for_function("() => document.activeElement.id === 'scoring'", timeout=WAIT)
        assert page.evaluate("() => location.pathname + location.hash") == "/rules#scoring"
    finally:
        ctx.close()


def test_the_header_links_to_the_rules(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("rules-link").click()
        page.get_by_test_id("rules-page").wait_for(timeout=WAIT)
        assert page.evaluate("() => location.pathname") == "/rules"
    finally:
        ctx.close()
