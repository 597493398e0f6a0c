"""The rondels' location names are whole and fit their nodes, in en, de and cs, at 1366×900 and
390×844: a long name wraps onto two lines or is narrowed to fit, never cut ("Weaving mi.").
Screenshots: test-artifacts/rondel-{lang}-{desktop,phone}.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_log_banner import new_table
from tests.browser.test_reach import DESKTOP, PHONE, WAIT
from tests.browser.test_since import Api

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]

DRAWN = """(castle) => {
  const nodes = document.querySelectorAll('svg.rondel .loc-node');
  const label = document.querySelector('svg.rondel [data-location=castle] .node-label');
  return nodes.length === 8 && !!label && label.textContent.includes(castle);
}"""

LABELS = """() => [...document.querySelectorAll('svg.rondel .loc-node')].map((g) => {
  const node = g.querySelector('circle.node');
  const lines = [...g.querySelectorAll('.node-label tspan')];
  const r = node.r.baseVal.value;
  return {
    id: g.dataset.location,
    text: lines.map((l) => l.textContent).join(' '),
    widest: Math.max(...lines.map((l) => l.getBBox().width)),
    room: 2 * r + 2,
    px: Math.min(...lines.map((l) => l.getBoundingClientRect().height)),
  };
})"""


def test_rondel_names_are_whole_and_fit_their_nodes(
    server: Any, browser: Any, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        api = Api(server)
        tid, _tokens = new_table(server, ctx, api, "Bo")
        page = ctx.new_page()
        page.goto(server.url(f"/t/{tid}"))
        page.locator("svg.rondel .loc-node").first.wait_for(timeout=WAIT)
        for lang in ("en", "de", "cs"):
            names = json.loads((ROOT / f"static/i18n/{lang}.json").read_text(encoding="utf-8"))
            page.get_by_test_id("lang-select").select_option(lang)
            page.locator(f"html[lang={lang}]").wait_for(state="attached", timeout=WAIT)
            for size, where in ((DESKTOP, "desktop"), (PHONE, "phone")):
                page.set_viewport_size(size)
                if where == "phone":
                    page.get_by_test_id("tab-board").click()
                # every node drawn, in this language (a drawing may still be on its way)
                page.wait_for_function(DRAWN, arg=names["loc.castle"], timeout=WAIT)
                labels = page.evaluate(LABELS)
                assert len(labels) == 8
                for label in labels:
                    assert label["text"] == names["loc." + label["id"]], (lang, label)
                    assert label["widest"] <= label["room"], (lang, where, label)
                    assert label["px"] >= 7, (lang, where, label)  # at least 7 px tall on screen
                # the page, not the element: the table redraws its panels as frames arrive
                screenshot(page, path=str(artifacts / f"rondel-{lang}-{where}.png"))
            page.set_viewport_size(DESKTOP)
    finally:
        ctx.close()
