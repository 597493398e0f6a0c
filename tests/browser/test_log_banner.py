"""The "last move" banner and the game log, in the browser. The banner shows each player's whole
last turn, each in that player's colour: a bot's turn begun by its own move that ended a round
reads from the first card it played, and the round's change does not hand the banner to another
player. The log draws the newest 100 moves; "Show older moves" draws the earlier ones the page
holds, then reads the rest from the server (GET …/log?before=) back to the first. Screenshot
(make shots): test-artifacts/banner-bot-round.png.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot
from tests.browser.test_play import ConsoleWatch, wait_version_above, wait_version_at_least
from tests.browser.test_since import Api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 30000  # ms: generous, for a loaded machine
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]
EN = json.loads((ROOT / "static/i18n/en.json").read_text(encoding="utf-8"))
SEAT1 = "rgb(45, 95, 168)"  # --seat1 in app.css


def new_table(server: Any, ctx: Any, api: Api, other: str | None) -> tuple[str, list[str]]:
    """Ann (the browser context) hosts a 2-seat table, Ann to start; seat 1 is `other`, or a
    greedy bot when None. Returns the table id and the tokens (Ann's, the other's)."""
    ctx.add_init_script("localStorage.setItem('emara.lang', 'en')")
    r = ctx.request.post(server.url("/api/profiles"), data={"name": "Ann"})
    ctx.add_init_script("localStorage.setItem('emara.signed_in', '1')")  # signed in by API
    assert r.ok, r.text()
    tokens = [r.json()["token"]]
    t = api.call(
        "POST", "/api/tables", tokens[0], json={"seats": 2, "options": {"start_player": 0}}
    )
    tid = t["id"]
    if other is None:
        api.call("POST", f"/api/tables/{tid}/seats/1/bot", tokens[0], json={"level": "greedy"})
    else:
        tokens.append(api.profile(other))
        api.call(
            "POST", f"/api/tables/{tid}/join", tokens[1], json={"invite_code": t["invite_code"]}
        )
    api.call("POST", f"/api/tables/{tid}/start", tokens[0])
    return tid, tokens


def bot_turn_after_a_round_change(log: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The events of seat 1's latest turn (from its turn_started to its turn_ended) when that turn
    is over and came right after a round change (round_started since the turn before), else None.
    The player who ends a round starts the next one, so the bot's move that ended a round (its
    entry holds the round's change) also began this turn."""
    events = [e for entry in log for e in entry["events"]]
    starts = [n for n, e in enumerate(events) if e["type"] == "turn_started" and e["seat"] == 1]
    if not starts:
        return None
    start = starts[-1]
    ends = [n for n, e in enumerate(events) if n > start and e["type"] == "turn_ended"]
    if not ends:
        return None
    before = [n for n in range(start) if events[n]["type"] == "turn_ended"]
    between = events[(before[-1] if before else 0) : start]
    if not any(e["type"] == "round_started" for e in between):
        return None
    return events[start : ends[0]]


def test_the_banner_shows_a_bots_whole_turn_across_a_round_change_in_its_colour(
    server: Any, browser: Any, artifacts: Path
) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        api = Api(server)
        tid, tokens = new_table(server, ctx, api, None)
        page = ctx.new_page()
        watch.attach(page, "ann")
        page.goto(server.url(f"/t/{tid}"))
        page.get_by_test_id("game").wait_for(timeout=WAIT)
        rng = random.Random(6)
        turn = None
        for _ in range(200):
            g = api.call("GET", f"/api/tables/{tid}/game", tokens[0])
            turn = bot_turn_after_a_round_change(g["log"])
            if turn is not None and g["view"]["to_act"] == [0]:
                break  # and nothing the bot does comes after it while Ann thinks
            assert g["view"]["to_act"], "the game ended first"
            if 0 in g["view"]["to_act"]:
                api.play(tid, tokens, 0, rng)
            else:  # the bot plays: the page hears of its next move
                wait_version_at_least(page, g["version"], WAIT)
                wait_version_above(page, g["version"], WAIT)
        else:
            raise AssertionError("no bot turn after a round change with Ann to act next")
        wait_version_at_least(page, g["version"], WAIT)
        cards = [EN["card." + e["card"]] for e in turn if e["type"] == "card_played"]
        assert cards, turn

        lines = page.get_by_test_id("last-turn")
        assert sorted(lines.evaluate_all("ls => ls.map(l => l.dataset.seat)")) == ["0", "1"]
        bot = page.locator("[data-testid=last-turn][data-seat='1']")
        text = bot.inner_text()
        # the whole turn, from its start: every card the bot played in it
        for name in cards:
            assert f"plays {name} on slot" in text, (name, text)
        # in the bot's colour, its symbol first
        assert "seat1" in (bot.get_attribute("class") or "")
        assert bot.evaluate("l => getComputedStyle(l).borderLeftColor") == SEAT1
        assert bot.locator(".seat-token").inner_text().strip() == "▲"
        assert bot.locator(".seat-token").evaluate("t => getComputedStyle(t).color") == SEAT1
        # the bot's turn is the latest one: its line comes first
        assert lines.first.get_attribute("data-seat") == "1"
        screenshot(page.get_by_test_id("last-move"), path=str(artifacts / "banner-bot-round.png"))
        screenshot(page, path=str(artifacts / "banner-bot-round-page.png"))
        assert watch.errors == []
    finally:
        ctx.close()


def test_show_older_reads_the_log_back_to_the_first_move(
    server: Any, browser: Any, artifacts: Path
) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        api = Api(server)
        tid, tokens = new_table(server, ctx, api, "Bo")
        page = ctx.new_page()
        watch.attach(page, "ann")
        asked: list[str] = []
        page.on("request", lambda req: "/log?" in req.url and asked.append(req.url))
        page.goto(server.url(f"/t/{tid}"))
        page.get_by_test_id("game").wait_for(timeout=WAIT)
        versions = (
            "() => [...new Set([...document.querySelectorAll('#log-list li[data-version]')]"
            + (".map(li => Number(li.dataset.version)))]")
        )
        # The page watches 130 moves come: it holds them all and draws the newest 100.
        rng = random.Random(9)
        now = 0
        while now < 130:
            seat = api.to_act(tid, tokens[0])[0]
            now = api.play(tid, tokens, seat, rng)
        wait_version_at_least(page, now, WAIT)
        assert page.evaluate(versions) == list(range(now - 99, now + 1))
        assert page.get_by_test_id("log-began").count() == 0
        older = page.get_by_test_id("log-older")
        assert older.is_visible() and older.inner_text() == "Show older moves"
        older.click()  # the held lines are drawn: nothing is asked of the server
        page.get_by_test_id("log-began").wait_for(state="attached", timeout=WAIT)
        assert page.evaluate(versions) == list(range(1, now + 1))
        assert page.get_by_test_id("log-older").count() == 0 and asked == []

        # Opened afresh, the page holds the newest 100 moves: older ones come from the server.
        page.reload()
        wait_version_at_least(page, now, WAIT)
        shown = page.evaluate(versions)
        assert shown == list(range(now - 99, now + 1))  # the newest 100 moves
        older = page.get_by_test_id("log-older")
        assert older.is_visible() and older.inner_text() == "Show older moves"
        with page.expect_request(lambda req: "/log?" in req.url, timeout=WAIT) as request:
            older.click()
        assert f"before={now - 99}" in request.value.url
        page.locator("#log-list li[data-version='1']").wait_for(state="attached", timeout=WAIT)
        assert page.evaluate(versions) == list(range(1, now + 1))
        assert page.get_by_test_id("log-older").count() == 0  # nothing older remains
        # moves after it: the log goes on, the older lines stay
        for _ in range(2):
            seat = api.to_act(tid, tokens[0])[0]
            after = api.play(tid, tokens, seat, rng)
        wait_version_at_least(page, after, WAIT)
        assert page.evaluate(versions) == list(range(1, after + 1))
        assert watch.errors == []
    finally:
        ctx.close()


def test_a_phone_opens_the_banner_to_read_the_whole_turns(server: Any, browser: Any) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        api = Api(server)
        tid, tokens = new_table(server, ctx, api, "Bo")
        rng = random.Random(2)
        now = 0
        while now < 30:
            seat = api.to_act(tid, tokens[0])[0]
            now = api.play(tid, tokens, seat, rng)
        page = ctx.new_page()
        watch.attach(page, "ann")
        page.goto(server.url(f"/t/{tid}"))
        wait_version_at_least(page, now, WAIT)
        banner = page.get_by_test_id("last-move")
        toggle = page.get_by_test_id("last-move-toggle")
        assert toggle.get_attribute("aria-expanded") == "false"
        shut = banner.evaluate("b => [b.clientHeight, b.scrollHeight]")
        toggle.click()
        page.locator("[data-testid=last-move].open").wait_for(timeout=WAIT)
        assert page.get_by_test_id("last-move-toggle").get_attribute("aria-expanded") == "true"
        opened = banner.evaluate("b => [b.clientHeight, b.scrollHeight]")
        assert opened[0] >= opened[1] - 1 and opened[0] >= shut[0]  # all of it in view
        assert watch.errors == []
    finally:
        ctx.close()
