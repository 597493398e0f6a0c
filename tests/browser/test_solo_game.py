"""A player starts a solo game from the browser and plays it by clicking until Victoria's first
round end (her delivery and her first title in the log and on her board); the server plays the
rest (``finish_in_server``: a whole game clicked in the browser is tests/browser/test_play.py's),
and the page, told over its socket, shows the final scores with her four titles; then the record
sheet is updated and an unfinished campaign game is offered for resuming.

Uses the browser suite's clicking player (tests/browser/test_play.py).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import finish_in_server
from tests.browser.shots import screenshot
from tests.browser.test_play import VIEWPORT, ConsoleWatch, Player

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAX_STEPS = 600


def victoria_lines(page: Any, word: str) -> list[str]:
    """Lines of the game log about Victoria that mention `word`."""
    lines = page.locator("#log-list li").all_inner_texts()
    return [line for line in lines if "Victoria" in line and word.lower() in line.lower()]


def test_solo_game_to_the_end_updates_the_record_sheet(
    server: Any,
    browser: Any,
    artifacts: Path,
) -> None:
    from playwright.sync_api import Error as PlaywrightError

    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        watch.attach(page, "solo")

        # From the landing page to the solo launcher; a name makes the profile.
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Sol")
        page.get_by_test_id("solo-open").click()
        page.wait_for_url(re.compile(r"/solo$"))
        page.get_by_test_id("name-input").fill("Sol")
        page.get_by_role("button", name="Continue").click()

        # The campaign offers its first start value; high score takes any value.
        campaign_button = page.get_by_test_id("solo-start-campaign")
        campaign_button.wait_for(timeout=10000)
        assert "40" in campaign_button.inner_text()
        page.get_by_test_id("solo-building-start").fill("30")
        page.get_by_test_id("solo-start-high-score").click()

        page.get_by_test_id("game").wait_for(timeout=15000)
        table_path = page.url.split(server.base, 1)[1]
        assert table_path.startswith("/t/")
        assert "Victoria" in page.get_by_test_id("score-track").inner_text()

        player = Player(page, random.Random(11))
        steps = 0
        seen_first_round_end = False
        while steps < MAX_STEPS and not seen_first_round_end:
            try:
                moved = player.act()
            except PlaywrightError as exc:
                # The table re-rendered under the click (a late socket update): look again.
                if "not attached" not in str(exc):
                    raise
                moved = False
            if not moved:
                page.wait_for_timeout(100)
            steps += 1
            if not seen_first_round_end and victoria_lines(page, "Baron"):
                # End of round 2: her delivery and her first title are in the log, and the
                # title is on her board.
                seen_first_round_end = True
                assert victoria_lines(page, "deliver")
                board = page.locator("article.victoria").inner_text()
                assert "Baron" in board
        assert seen_first_round_end, "Victoria's title of round 2 never showed in the log"
        finish_in_server(server, table_path.rsplit("/", 1)[-1], seed=11)
        final = page.get_by_test_id("final-scores")
        final.wait_for(timeout=15000)
        final_text = final.inner_text()
        assert "Victoria" in final_text
        # Her last delivery (round 6) closes the log, and she holds her four titles.
        assert victoria_lines(page, "deliver")
        board = page.locator("article.victoria").inner_text()
        for title in ("Baron", "Count", "Prince", "Marquess"):
            assert title in board, board
        screenshot(page, path=str(artifacts / "solo-final.png"), full_page=True)

        # The score the page shows is the one recorded on the sheet.
        game = page.evaluate(
            "async (p) => (await fetch('/api/tables/' + p.split('/').pop() + '/game', "
            "{credentials: 'same-origin'})).json()",
            table_path,
        )
        outcome = game["view"]["outcome"]
        my_score = outcome["players"][0]["score"]
        victoria_score = outcome["victoria"]["score"]

        page.goto(server.url("/records"))
        high = page.get_by_test_id("high-scores")
        high.wait_for(timeout=10000)
        row = high.locator("tr[data-start='30']")
        assert row.locator("td").inner_text().strip() == str(my_score)
        for start in (40, 35, 25, 20, 15):
            assert high.locator(f"tr[data-start='{start}'] td").inner_text().strip() == ""
        results = page.get_by_test_id("solo-results").locator("tbody tr")
        assert results.count() == 1
        cells = results.first.locator("td").all_inner_texts()
        assert cells[2] == "30" and cells[5] == str(my_score) and cells[6] == str(victoria_score)
        assert page.get_by_test_id("campaign-next").inner_text().strip() == "40"
        screenshot(page, path=str(artifacts / "solo-records.png"), full_page=True)

        # A campaign game started and left unfinished is offered for resuming.
        page.goto(server.url("/solo"))
        page.get_by_test_id("solo-start-campaign").click()
        page.get_by_test_id("game").wait_for(timeout=15000)
        campaign_path = page.url.split(server.base, 1)[1]
        assert campaign_path != table_path
        page.goto(server.url("/solo"))
        resume = page.get_by_test_id("solo-resume")
        resume.wait_for(timeout=10000)
        resume.get_by_role("button").first.click()
        page.get_by_test_id("game").wait_for(timeout=15000)
        assert page.url.endswith(campaign_path)

        assert watch.errors == [], "console errors:\n" + "\n".join(watch.errors)
    finally:
        ctx.close()
