"""The replay viewer and my history in Chromium: a finished game stepped through with the keys on
a 390x844 phone (→ ← End Home move the position, the log's highlight and the scores), the eyes
switch that opens the hands, the replay links on the end screen and in My games, and the
history page. Screenshots go to test-artifacts/ (and EMARA_SHOTS, when set)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.test_endscreen import api, open_table, play_to_end, profile, shoot, sideways

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
WAIT = 20000


@pytest.fixture(scope="module")
def finished(server: Any) -> dict[str, Any]:
    """A finished two-player game of Gil and Hal, and its replay as the API gives it."""
    tokens = [profile(server, "Gil"), profile(server, "Hal")]
    table_id = open_table(server, tokens)
    play_to_end(server, table_id, tokens, seed=4)
    replay = api(server, tokens[0], "GET", f"/api/replays/{table_id}")
    return {"tokens": tokens, "table_id": table_id, "replay": replay}


def signed_in(browser: Any, server: Any, token: str, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport)
    host = httpx.URL(server.url("/")).host
    ctx.add_cookies([{"name": "emara_token", "value": token, "domain": host, "path": "/"}])
    ctx.add_init_script("localStorage.setItem('emara.signed_in','1')")
    return ctx


def shown(page: Any) -> int:
    return int(page.get_by_test_id("replay-board").get_attribute("data-position"))


def wait_at(page: Any, n: int) -> None:
    page.wait_for_function(
        "n => { const b = document.querySelector('[data-testid=replay-board]');"
        " return b && b.dataset.position === String(n); }",
        arg=n,
        timeout=WAIT,
    )


def highlighted(page: Any) -> int:
    return int(page.locator("[data-testid=replay-log] li.current").get_attribute("data-position"))


def scores(page: Any) -> dict[int, tuple[int, int]]:
    rows = page.locator("[data-testid=score-row]").evaluate_all(
        """rows => rows.filter(r => r.dataset.seat !== 'v').map(r => [Number(r.dataset.seat),
             Number(r.querySelector('[data-testid=score-cp] .n').textContent),
             Number(r.querySelector('[data-testid=score-bp] .n').textContent)])"""
    )
    return {seat: (cp, bp) for seat, cp, bp in rows}


def chart(page: Any) -> dict[int, tuple[int, int]]:
    """The totals of the replay's points-by-source chart, per seat (CP, BP)."""
    rows = page.locator("[data-testid=replay-points] [data-testid=breakdown-player]").evaluate_all(
        """rows => rows.map(r => [Number(r.dataset.seat),
             Number(r.querySelector('[data-testid=breakdown-total][data-track=cp]').textContent),
             Number(r.querySelector('[data-testid=breakdown-total][data-track=bp]').textContent)])"""
    )
    return {seat: (cp, bp) for seat, cp, bp in rows}


def tracks(replay: dict[str, Any], n: int) -> dict[int, tuple[int, int]]:
    return {p["seat"]: (p["cp"], p["bp"]) for p in replay["tracks"][n] if not p["victoria"]}


def test_phone_steps_through_a_replay_with_the_keys(
    server: Any, browser: Any, finished: dict[str, Any], artifacts: Path
) -> None:
    replay, table_id = finished["replay"], finished["table_id"]
    last = replay["positions"] - 1
    # a position where the tracks moved, so the scores must change on the way there
    moved = next(n for n in range(1, last + 1) if tracks(replay, n) != tracks(replay, n - 1))
    ctx = signed_in(browser, server, finished["tokens"][0], PHONE)
    try:
        page = ctx.new_page()
        page.goto(server.url(f"/r/{table_id}?at={moved - 1}"))
        wait_at(page, moved - 1)
        assert highlighted(page) == moved - 1
        assert scores(page) == tracks(replay, moved - 1)
        assert page.get_by_test_id("replay-analysis").count() == 1
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("ArrowRight")
        wait_at(page, moved)
        assert highlighted(page) == moved
        assert scores(page) == tracks(replay, moved) != tracks(replay, moved - 1)
        assert chart(page) == tracks(replay, moved)  # where the points so far came from
        assert page.evaluate("location.search") == f"?at={moved}"
        page.keyboard.press("ArrowLeft")
        wait_at(page, moved - 1)
        assert highlighted(page) == moved - 1 and scores(page) == tracks(replay, moved - 1)
        page.keyboard.press("End")
        wait_at(page, last)
        assert highlighted(page) == last
        final = {p["seat"]: (p["cp"], p["bp"]) for p in replay["outcome"]["players"]}
        assert scores(page) == final
        assert chart(page) == final  # the final tracks by source, leftovers counted
        assert page.get_by_test_id("replay-next").is_disabled()
        shoot(page, artifacts, "replay-phone-end")
        page.keyboard.press("Home")
        wait_at(page, 0)
        assert highlighted(page) == 0 and scores(page) == tracks(replay, 0)
        assert page.get_by_test_id("replay-prev").is_disabled()
        # a move in the log is a button that jumps to it
        page.locator("[data-testid=replay-log] li[data-position='5'] button").click()
        wait_at(page, 5)
        assert highlighted(page) == 5
        # the link keeps the position: #N works as well as ?at=N
        page.goto(server.url(f"/r/{table_id}#7"))
        wait_at(page, 7)
        shoot(page, artifacts, "replay-phone")
        assert sideways(page) == 0
    finally:
        ctx.close()


def test_eyes_switch_shows_the_hands(server: Any, browser: Any, finished: dict[str, Any]) -> None:
    table_id = finished["table_id"]
    ctx = signed_in(browser, server, finished["tokens"][1], DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.url(f"/r/{table_id}?at=3"))
        wait_at(page, 3)
        hands = page.get_by_test_id("replay-hand")
        assert hands.count() == 2  # everyone's eyes: both hands open
        path = f"/api/replays/{table_id}/positions/3?eyes=1"
        want = api(server, finished["tokens"][1], "GET", path)
        page.get_by_test_id("replay-eyes").select_option("1")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=replay-board]').dataset.eyes === '1'",
            timeout=WAIT,
        )
        assert hands.count() == 1 and hands.first.get_attribute("data-seat") == "1"
        cards = hands.first.locator(".replay-card").evaluate_all(
            "xs => xs.map(x => x.dataset.card)"
        )
        assert cards == want["view"]["me"]["hand"]
    finally:
        ctx.close()


def test_replay_links_on_the_end_screen_in_my_games_and_the_history(
    server: Any, browser: Any, finished: dict[str, Any], artifacts: Path
) -> None:
    table_id = finished["table_id"]
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx = signed_in(browser, server, finished["tokens"][0], viewport)
        try:
            page = ctx.new_page()
            page.goto(server.url(f"/t/{table_id}"))
            page.get_by_test_id("final-scores").wait_for(timeout=WAIT)
            link = page.get_by_test_id("final-scores").get_by_test_id("replay-link")
            assert link.get_attribute("href") == f"/r/{table_id}"
            page.goto(server.url("/games"))
            row = page.locator(f"[data-testid=my-game][data-table='{table_id}']")
            row.wait_for(timeout=WAIT)
            assert row.get_by_test_id("replay-link").get_attribute("href") == f"/r/{table_id}"
            page.get_by_test_id("history-link-games").click()
            page.get_by_test_id("history").wait_for(timeout=WAIT)
            game = page.locator(f"[data-testid=history-game][data-replay='{table_id}']")
            assert game.get_by_test_id("replay-link").get_attribute("href") == f"/r/{table_id}"
            assert page.get_by_test_id("history-averages").locator("tbody tr").count() == 1
            shoot(page, artifacts, f"history-{name}")
            assert sideways(page) == 0
            game.get_by_test_id("replay-link").click()
            wait_at(page, 0)
            shoot(page, artifacts, f"replay-{name}")
        finally:
            ctx.close()


def test_the_host_makes_the_replay_public_from_the_end_screen(
    server: Any, browser: Any, finished: dict[str, Any]
) -> None:
    table_id = finished["table_id"]
    stranger = profile(server, "Ivo")

    def stranger_sees() -> int:
        r = httpx.get(
            server.url(f"/api/replays/{table_id}"),
            headers={"Authorization": f"Bearer {stranger}"},
            timeout=30,
        )
        return r.status_code

    assert stranger_sees() == 404  # off by default
    guest = signed_in(browser, server, finished["tokens"][1], PHONE)
    try:
        page = guest.new_page()
        page.goto(server.url(f"/t/{table_id}"))
        page.get_by_test_id("final-scores").get_by_test_id("replay-link").wait_for(timeout=WAIT)
        assert page.get_by_test_id("public-replay-toggle").count() == 0  # the host's choice
    finally:
        guest.close()
    host = signed_in(browser, server, finished["tokens"][0], PHONE)
    try:
        page = host.new_page()
        page.goto(server.url(f"/t/{table_id}"))
        box = page.get_by_test_id("public-replay-toggle")
        box.wait_for(timeout=WAIT)
        assert not box.is_checked()
        box.check()
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=public-replay-toggle]').disabled",
            timeout=WAIT,
        )
        assert stranger_sees() == 200
        page.reload()
        box = page.get_by_test_id("public-replay-toggle")
        box.wait_for(timeout=WAIT)
        assert box.is_checked()  # the table remembers
        box.uncheck()
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=public-replay-toggle]').disabled",
            timeout=WAIT,
        )
        assert stranger_sees() == 404
    finally:
        host.close()


def test_a_held_key_asks_the_server_for_the_position_where_it_stops(
    server: Any, browser: Any, finished: dict[str, Any]
) -> None:
    """Thirty steps at once (a held arrow key, a dragged slider): the server is asked for the
    first and the last position, not for the twenty-eight passed on the way."""
    table_id = finished["table_id"]
    ctx = signed_in(browser, server, finished["tokens"][0], DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.url(f"/r/{table_id}?at=0"))
        wait_at(page, 0)
        asked: list[str] = []
        page.on("request", lambda r: "/positions/" in r.url and asked.append(r.url))
        page.locator("body").click(position={"x": 5, "y": 5})
        # the page's clock stands still while the thirty keys go down (on a busy machine the
        # loop itself may take longer than the viewer's pause between two positions)
        page.evaluate(
            """() => { const now = performance.now(); performance.now = () => now;
                 for (let i = 0; i < 30; i++) document.dispatchEvent(
                   new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true })); }"""
        )
        wait_at(page, 30)
        assert [u.split("/positions/")[1].split("?")[0] for u in asked] == ["1", "30"]
    finally:
        ctx.close()
