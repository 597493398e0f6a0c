"""The end screen's "where the points came from": after a finished two-player game and a solo
game, each player's CP and BP bars show the outcome's final tracks split by source (the bar's
segments add up to the total shown, the screen-reader text names every source with its points),
the lower track is marked as the score, and the chart fits a 390 px phone.

Games are played to their end over HTTP (random legal moves), then looked at in Chromium.
Screenshots go to test-artifacts/ (and EMARA_SHOTS, when set)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_endscreen import (
    DESKTOP,
    PHONE,
    SIDEWAYS_JS,
    WAIT,
    api,
    open_table,
    play_to_end,
    profile,
    shoot,
    sign_up,
)

pytestmark = [pytest.mark.browser]

SOURCE_WORDS = {
    "start": "Start value",
    "titles": "Titles",
    "craftsmen": "Craftsmen",
    "advisors": "Advisors",
    "deliveries": "Deliveries",
    "books": "Books",
    "favor": "Favor tokens",
    "events": "Events",
    "paid": "Paid away",
    "leftovers": "Leftover goods",
    "unrecorded": "Not recorded",
}


def check_chart(page: Any, outcome: dict[str, Any]) -> None:
    chart = page.get_by_test_id("final-scores").get_by_test_id("breakdown")
    chart.wait_for(timeout=WAIT)
    assert chart.locator("h3").inner_text() == "Where the points came from"
    players = chart.get_by_test_id("breakdown-player")
    assert players.count() == len(outcome["players"])
    used: set[str] = set()
    for op in outcome["players"]:
        box = chart.locator(f"[data-testid=breakdown-player][data-seat='{op['seat']}']")
        totals = box.get_by_test_id("breakdown-total").all_inner_texts()
        assert [int(x) for x in totals] == [op["cp"], op["bp"]]
        for track in ("cp", "bp"):
            per = op["points"][track]
            assert sum(per.values()) == op[track]
            bar = box.locator(f"[data-testid=breakdown-bar][data-track={track}]")
            widths = bar.locator("rect").evaluate_all(
                "rs => rs.filter(r => !r.classList.contains('bd-s-paid'))"
                ".map(r => [r.getAttribute('class'), Number(r.getAttribute('width'))])"
            )
            drawn = {cls.split("bd-s-")[1]: w for cls, w in widths}
            assert drawn == {s: n for s, n in per.items() if n > 0}
            used |= {s for s, n in per.items() if n}
        words = box.locator(".sr").all_inner_texts()
        assert len(words) == 2
        for text, track, name in zip(words, ("cp", "bp"), ("CP", "BP"), strict=True):
            assert text.startswith(f"{name} {op[track]} in total: ")
            for source, n in op["points"][track].items():
                assert (f"{SOURCE_WORDS[source]} {n}" in text) == (n != 0), (text, source)
        lower = "CP" if op["cp"] <= op["bp"] else "BP"
        assert box.locator(".bd-lower").inner_text() == (
            f"Score: the lower track, {lower} {min(op['cp'], op['bp'])}"
        )
        assert box.locator(".bd-row.lower .bd-track").inner_text().startswith(lower)
    legend = chart.get_by_test_id("breakdown-legend").locator("li").all_inner_texts()
    assert legend == [SOURCE_WORDS[s] for s in SOURCE_WORDS if s in used]
    assert "Leftover goods" in legend or not any(
        p["leftover"]["points"] for p in outcome["players"]
    )


def test_the_end_screen_shows_where_the_points_came_from(
    server: Any, browser: Any, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        ada = sign_up(page, server, "Ada")
        tokens = [ada, profile(server, "Bruno")]
        table_id = open_table(server, tokens)
        final = play_to_end(server, table_id, tokens, seed=11)
        outcome = final["view"]["outcome"]
        page.goto(server.url(f"/t/{table_id}"))
        check_chart(page, outcome)
        shoot(page, artifacts, "breakdown-2p-desktop")
        screenshot(
            page.get_by_test_id("breakdown"), path=str(artifacts / "breakdown-chart-desktop.png")
        )
        page.set_viewport_size(PHONE)
        page.wait_for_function(f"{SIDEWAYS_JS} <= 0", timeout=WAIT)
        check_chart(page, outcome)
        chart = page.get_by_test_id("breakdown").bounding_box()
        assert (
            chart is not None and chart["x"] >= 0 and chart["x"] + chart["width"] <= PHONE["width"]
        )
        for bar in page.get_by_test_id("breakdown-bar").all():
            box = bar.bounding_box()
            assert box is not None and box["width"] >= 150  # readable on a phone
        shoot(page, artifacts, "breakdown-2p-phone")
        screenshot(
            page.get_by_test_id("breakdown"), path=str(artifacts / "breakdown-chart-phone.png")
        )
    finally:
        ctx.close()


def test_the_solo_end_screen_shows_where_the_points_came_from(
    server: Any, browser: Any, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        token = sign_up(page, server, "Dora")
        started = api(server, token, "POST", "/api/solo", json={"mode": "campaign"})
        final = play_to_end(server, started["table_id"], [token], seed=5)
        outcome = final["view"]["outcome"]
        page.goto(server.url(f"/t/{started['table_id']}"))
        check_chart(page, outcome)
        # the start value of a campaign game is where the BP began
        assert outcome["players"][0]["points"]["bp"]["start"] == started["building_start"]
        assert "Start value" in page.get_by_test_id("breakdown-legend").inner_text()
        page.wait_for_function(f"{SIDEWAYS_JS} <= 0", timeout=WAIT)
        shoot(page, artifacts, "breakdown-solo-phone")
    finally:
        ctx.close()
