"""Bot seats from the browser: the host seats a bot in the lobby, a player leaves a running game to
a bot and takes the seat back, all by clicking.

A 3-seat table: the host (seat 0), a greedy bot added from the lobby (seat 1), a guest who joins
through the invite link (seat 2). The bot moves on its turn without anyone clicking; the guest
leaves ("a bot plays on"), the host's page shows the guest's seat as a bot's, the guest takes the
seat back and gets their legal moves again on their turn. No page logs a console error.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_play import (
    CHOICES,
    Player,
    host_and_guest,
    version,
    wait_version_above,
    wait_version_at_least,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 30000  # ms: generous, for a loaded machine
SHORT_WAIT = 500  # ms: one look of a longer wait
BOARD = "[data-testid=player-board][data-seat='{}']"

# The seats the page shows as to act, and whether one of them is played by a bot.
ACTING_JS = "() => [...document.querySelectorAll('[data-testid=player-board].acting')]" + (
    ".map(e => Number(e.dataset.seat))"
)
BOT_ACTING_JS = "!!document.querySelector('[data-testid=player-board].acting[data-bot-level]')"
# Something to click that is this page's own to click (not while a bot is also to act).
CAN_CLICK_JS = f"(!!document.querySelector('{CHOICES}') && !{BOT_ACTING_JS})"


def acting(page: Any) -> list[int]:
    return list(page.evaluate(ACTING_JS))


def can_click(page: Any) -> bool:
    return bool(page.evaluate(f"() => {CAN_CLICK_JS}"))


def moves_of(page: Any, seat: int) -> list[int]:
    """The versions of the moves made for `seat`, from the game log the server keeps (read with
    the page's own profile cookie)."""
    table_id = page.url.split("/t/", 1)[1].split("?", 1)[0]
    res = page.context.request.get(page.url.split("/t/", 1)[0] + f"/api/tables/{table_id}/game")
    assert res.ok, res.text()
    return [int(e["version"]) for e in res.json()["log"] if e["seat"] == seat]


def play_until(
    done: Callable[[], bool], humans: list[Player], pages: list[Any], what: str, limit: int = 400
) -> None:
    """`humans` click their legal moves (never while a bot is also to act, so no click races a
    bot's move) until `done()`; when nobody can click, wait for one of `pages` to change (a bot's
    move, or a frame that page had not received yet)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(limit):
        if done():
            return
        if any(can_click(p.page) and p.act() for p in humans):
            continue
        seen = [version(pg) for pg in pages]
        # The page that lags catches up first; if none lags, only a bot's move changes anything.
        pg, v = min(zip(pages, seen, strict=True), key=lambda x: x[1])
        # Watch that page in short waits, and between them look again at the goal and at the
        # people: the change may show on another page (the guest's, when the host lags in
        # nothing).
        for _wait in range(WAIT // SHORT_WAIT):
            try:
                pg.wait_for_function(
                    f"v => Number(document.body.dataset.version) !== v || {CAN_CLICK_JS}",
                    arg=v,
                    timeout=SHORT_WAIT,
                )
                break
            except PlaywrightTimeout:
                if done() or any(can_click(p.page) for p in humans):
                    break
        else:  # say what every page and the server saw
            raise AssertionError(f"stuck before {what}: {situation(pages)}")
    raise AssertionError(f"not reached after {limit} steps: {what}")


def situation(pages: list[Any]) -> str:
    """Each page's version, acting seats, bot seats and clickable choices, and the server's."""
    out = []
    for pg in pages:
        boards = pg.evaluate(
            "() => [...document.querySelectorAll('[data-testid=player-board]')].map(e =>"
            " [e.dataset.seat, e.dataset.botLevel || '', e.classList.contains('acting')])"
        )
        out.append(
            f"page v{version(pg)} boards(seat, bot, acting)={boards} "
            f"choices={pg.locator(CHOICES).count()}"
        )
    page = pages[0]
    table_id = page.url.split("/t/", 1)[1].split("?", 1)[0]
    res = page.context.request.get(page.url.split("/t/", 1)[0] + f"/api/tables/{table_id}/game")
    if res.ok:
        g = res.json()
        out.append(
            f"server v{g['version']} to_act={g['view'].get('to_act')} seats={g.get('seats')}"
        )
    return "; ".join(out)


def test_bots_take_seats_and_players_leave_and_reclaim(
    server: Any, browser: Any, artifacts: Path
) -> None:
    rng = random.Random(5)
    with host_and_guest(browser) as (host, guest, watch):
        # The host opens a table for three; the host moves first.
        host.goto(server.url("/"))
        host.get_by_test_id("name-input").fill("Hana")
        host.get_by_test_id("seats").select_option("3")
        host.get_by_test_id("start-player").select_option("0")
        host.get_by_test_id("create-table").click()
        invite = host.get_by_test_id("invite-link").input_value()

        # Bots in seats 1 and 2, chosen by their level's words; seat 1's becomes a greedy one,
        # seat 2's is removed again (for the guest).
        level = host.locator("[data-testid=bot-level][data-seat='1']")
        labels = level.locator("option").all_inner_texts()
        assert labels == ["Easy (random)", "Medium (greedy)", "Hard (strong)"]
        level.select_option("random")
        host.locator("[data-testid=add-bot][data-seat='1']").click()
        seat1 = host.locator("[data-testid=lobby-seat][data-seat='1']")
        host.locator("[data-testid=lobby-seat][data-seat='1'][data-bot-level=random]").wait_for(
            timeout=WAIT
        )
        assert "Bot · Easy (random)" in seat1.inner_text()
        host.locator("[data-testid=add-bot][data-seat='2']").click()
        host.locator("[data-testid=lobby-seat][data-seat='2'][data-bot-level]").wait_for(
            timeout=WAIT
        )
        # every open seat holds a bot: the table can start
        host.wait_for_function(
            "() => !document.querySelector('[data-testid=start-game]')?.disabled", timeout=WAIT
        )
        host.locator("[data-testid=bot-level-change][data-seat='1']").select_option("greedy")
        host.locator("[data-testid=lobby-seat][data-seat='1'][data-bot-level=greedy]").wait_for(
            timeout=WAIT
        )
        assert "Bot · Medium (greedy)" in seat1.inner_text()
        host.locator("[data-testid=remove-bot][data-seat='2']").click()
        host.locator("[data-testid=add-bot][data-seat='2']").wait_for(timeout=WAIT)
        assert host.get_by_test_id("start-game").is_disabled()  # seat 2 is open again

        # The guest joins through the invite link: the bot's seat is labelled, with its level,
        # and only the host has the bot controls.
        guest.goto(invite)
        guest.get_by_test_id("name-input").fill("Gus")
        guest.get_by_test_id("join-table").click()
        guest.locator("[data-testid=lobby-seat][data-seat='2']").get_by_text("Gus").wait_for(
            timeout=WAIT
        )
        guest_bot = guest.locator("[data-testid=lobby-seat][data-seat='1']")
        assert "Bot · Medium (greedy)" in guest_bot.inner_text()
        assert guest.locator("[data-testid=add-bot], [data-testid=remove-bot]").count() == 0

        host.wait_for_function(
            "() => !document.querySelector('[data-testid=start-game]')?.disabled", timeout=WAIT
        )
        screenshot(host, path=str(artifacts / "lobby-bot.png"))
        host.get_by_test_id("start-game").click()
        host.get_by_test_id("game").wait_for(timeout=WAIT)
        guest.get_by_test_id("game").wait_for(timeout=WAIT)

        # Seat 1 shows as a bot, with its level, on the boards and the score track of both.
        for page in (host, guest):
            marker = page.locator(BOARD.format(1)).get_by_test_id("bot-marker")
            marker.wait_for(timeout=WAIT)
            assert marker.get_attribute("data-level") == "greedy"
            legend = page.get_by_test_id("score-track").get_by_test_id("bot-marker")
            assert legend.count() == 1 and legend.get_attribute("data-level") == "greedy"
        # The guest may only hand their own seat over; the host may try for the guest's seat.
        assert guest.locator("[data-testid=leave-seat][data-seat='2']").count() == 1
        assert guest.get_by_test_id("hand-to-bot").count() == 0
        assert host.locator("[data-testid=hand-to-bot][data-seat='2']").count() == 1

        hana, gus = Player(host, rng), Player(guest, rng)

        # The people play until the bot's turn has come: nobody clicks for seat 1, yet its moves
        # are made, and the views advance past them.
        pages = [host, guest]
        play_until(lambda: bool(moves_of(host, 1)), [hana, gus], pages, "a move of the bot")
        bot_moved = max(moves_of(host, 1))
        wait_version_at_least(host, bot_moved, timeout=WAIT)
        wait_version_at_least(guest, bot_moved, timeout=WAIT)

        # The guest's turn (or decision): the guest leaves, with a confirm step, to an easy bot.
        play_until(lambda: can_click(guest), [hana], pages, "the guest's turn")
        guest.locator("[data-testid=leave-seat][data-seat='2']").click()
        confirm = guest.get_by_test_id("seat-confirm")
        confirm.wait_for(timeout=WAIT)
        confirm.get_by_test_id("bot-level").select_option("random")
        before = version(guest)
        confirm.get_by_test_id("leave-confirm").click()

        # The host's page shows the guest's seat as played by a bot, the guest keeps their name.
        host_board = host.locator(BOARD.format(2) + "[data-bot-level=random]")
        host_board.wait_for(timeout=WAIT)
        assert "Gus" in host_board.inner_text()
        assert "bot · Easy (random)" in host_board.get_by_test_id("bot-marker").inner_text()
        assert host.get_by_test_id("score-track").get_by_test_id("bot-marker").count() == 2
        assert host.locator("[data-testid=hand-to-bot][data-seat='2']").count() == 0
        # The guest sees the bot at work and can take the seat back, but has no moves to click.
        guest.get_by_test_id("reclaim-seat").wait_for(timeout=WAIT)
        assert guest.locator(BOARD.format(2) + "[data-bot-level=random]").count() == 1
        assert guest.locator(CHOICES).count() == 0
        assert guest.get_by_test_id("leave-seat").count() == 0
        # It was the guest's move: the bot makes it, nobody clicks.
        wait_version_above(guest, before, timeout=WAIT)
        assert [v for v in moves_of(guest, 2) if v > before], "no move was made for seat 2"
        screenshot(host, path=str(artifacts / "game-bot-seat.png"))

        # The guest takes the seat back: theirs again on both pages.
        guest.get_by_test_id("reclaim-seat").click()
        guest.locator(BOARD.format(2) + ":not([data-bot-level])").wait_for(timeout=WAIT)
        host.locator(BOARD.format(2) + ":not([data-bot-level])").wait_for(timeout=WAIT)
        assert guest.get_by_test_id("reclaim-seat").count() == 0
        assert guest.get_by_test_id("bot-playing").count() == 0
        assert guest.locator("[data-testid=leave-seat][data-seat='2']").count() == 1

        # On the guest's next turn (or decision), the legal moves are the guest's to click.
        play_until(lambda: can_click(guest), [hana], pages, "the guest's turn after reclaiming")
        assert 2 in acting(guest)
        assert guest.locator(CHOICES).count() > 0
        turn = guest.get_by_test_id("turn-indicator").inner_text()
        assert "Your turn" in turn or "Your decision" in turn
        assert gus.act(), "the guest's legal move was not taken"

        assert watch.errors == [], "console errors:\n" + "\n".join(watch.errors)

        # The host cannot hand an active player's seat to a bot: the refusal is shown in words.
        host.locator("[data-testid=hand-to-bot][data-seat='2']").click()
        host.get_by_test_id("seat-confirm").get_by_test_id("hand-confirm").click()
        error = host.get_by_test_id("error").first
        error.wait_for(timeout=WAIT)
        assert "still playing" in error.inner_text()
        assert host.locator(BOARD.format(2) + ":not([data-bot-level])").count() == 1
        # (the browser reports the refused request itself, and nothing else)
        assert all("409" in e for e in watch.errors), "\n".join(watch.errors)
