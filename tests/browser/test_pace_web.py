"""Play across the day in the browser: a turn-based table opened with its pace, the clocks that
count down to the server's deadlines, My games (live, with the waiting count in the title and the
favicon on every page), the host's vacation, and the notice of a seat whose time ran out.

Two people sit at a table with 24 hours per move. The guest closes the tab and watches My games in
another one; the host moves; the guest's My games moves the table to "Your turn" by itself (the
server-sent events), and the guest comes back to the table through it, with the time left. The
clocks are compared with the server's payloads (the deadline the page counts down to, and the
seconds it shows), never with a fixed wait. Screenshots of both sides land in test-artifacts/.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.browser.modules import own_modules
from tests.browser.shots import screenshot
from tests.browser.test_play import VIEWPORT, ConsoleWatch, Player, version

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAME = """async (id) => (await (await fetch(`/api/tables/${id}/game`)).json())"""
MINE = """async () => (await (await fetch('/api/me/tables')).json())"""


def running_seat(page: Any) -> int | None:
    seat = page.evaluate(
        """() => { const el = document.querySelector('[data-testid=clock-seat].running');
                   return el ? Number(el.dataset.seat) : null; }"""
    )
    return None if seat is None else int(seat)


def check_clock_against_server(page: Any, table_id: str, seat: int) -> None:
    """The ticking clock of ``seat`` counts down to the deadline of the server's payload, and
    shows the seconds left until it (as this page reads its own clock), in the page's format."""
    game = page.evaluate(GAME, table_id)
    server_seat = game["clock"]["seats"][seat]
    assert server_seat["running"] is True
    shown = page.locator(f"[data-testid=clock-time][data-seat='{seat}']")
    assert shown.get_attribute("data-deadline") == server_seat["deadline"]
    found = page.evaluate(
        own_modules("""async (seat) => {
             const { formatLeft } = await import('/js/pace.js');
             const el = document.querySelector(`[data-testid=clock-time][data-seat='${seat}']`);
             const left = (Date.parse(el.dataset.deadline) - Date.now()) / 1000;
             return { text: el.textContent, shownLeft: Number(el.dataset.left), left,
                      near: [formatLeft(left + 1), formatLeft(left), formatLeft(left - 1)] };
           }"""),
        seat,
    )
    # the ticker repaints twice a second: the figure is the server's, at most a second behind
    assert abs(found["shownLeft"] - found["left"]) <= 1.5, found
    assert found["text"] in found["near"], found
    # 24 hours per move, just started: the display says so
    assert 23 * 3600 < found["left"] <= 24 * 3600
    # and it ticks: the seconds left go down without any new payload
    page.wait_for_function(
        """([seat, was]) => Number(document.querySelector(
             `[data-testid=clock-time][data-seat='${seat}']`).dataset.left) < was""",
        arg=[seat, found["shownLeft"]],
        timeout=15000,
    )


def test_a_turn_based_game_across_the_day(server: Any, browser: Any, artifacts: Path) -> None:
    watch = ConsoleWatch()
    host_ctx = browser.new_context(viewport=VIEWPORT)
    guest_ctx = browser.new_context(viewport=VIEWPORT)
    try:
        host = host_ctx.new_page()
        watch.attach(host, "host")
        # ---- the host opens a turn-based table, 24 hours per move, and starts first
        host.goto(server.url("/"))
        host.get_by_test_id("name-input").fill("Hana")
        host.get_by_test_id("pace").select_option("turn:24")
        host.get_by_test_id("start-player").select_option("0")
        host.get_by_test_id("create-table").click()
        assert host.get_by_test_id("lobby-pace").inner_text() == "Turn-based, 24 hours per move"
        invite = host.get_by_test_id("invite-link").input_value()
        table_id = host.url.rsplit("/t/", 1)[1].split("?")[0]

        guest = guest_ctx.new_page()
        watch.attach(guest, "guest")
        guest.goto(invite)
        guest.get_by_test_id("name-input").fill("Gustav")
        guest.get_by_test_id("join-table").click()
        guest.get_by_test_id("lobby-pace").wait_for(timeout=10000)
        assert guest.get_by_test_id("lobby-pace").inner_text() == "Turn-based, 24 hours per move"
        host.wait_for_function(
            "() => !document.querySelector('[data-testid=start-game]').disabled", timeout=15000
        )
        host.get_by_test_id("start-game").click()
        host.get_by_test_id("clocks").wait_for(timeout=15000)
        guest.get_by_test_id("clocks").wait_for(timeout=15000)

        # ---- both sides tick the host's clock from the server's deadline
        assert running_seat(host) == 0 and running_seat(guest) == 0
        check_clock_against_server(host, table_id, 0)
        check_clock_against_server(guest, table_id, 0)
        # one table waits for the host (their turn), none for the guest
        host.wait_for_function(
            "() => document.title === '(1) ● Your turn — Crown of Emara'", timeout=15000
        )
        assert not guest.title().startswith("(")

        # ---- the guest closes the table and keeps My games open in another tab
        guest.close()
        games = guest_ctx.new_page()
        watch.attach(games, "guest games")
        games.goto(server.url("/games"))
        row = games.locator(f"[data-testid=my-game][data-table='{table_id}']")
        row.wait_for(timeout=15000)
        assert row.get_attribute("data-group") == "playing"
        assert games.get_by_test_id("waiting-count").is_hidden()

        # ---- the host plays their turn through
        player = Player(host, random.Random(3))
        for _ in range(60):
            if running_seat(host) == 1:
                break
            assert player.act(), "the host has a turn to play"
        assert running_seat(host) == 1

        # ---- My games moved the table to "Your turn" by itself, with the time left
        games.wait_for_function(
            """(id) => {
                 const r = document.querySelector(`[data-testid=my-game][data-table='${id}']`);
                 return r && r.dataset.group === 'your_turn'; }""",
            arg=table_id,
            timeout=20000,
        )
        mine = games.evaluate(MINE)
        assert mine["waiting"] == 1
        entry = next(x for x in mine["tables"] if x["id"] == table_id)
        assert entry["my_turn"] is True and entry["group"] == "your_turn"
        clock = row.get_by_test_id("my-game-time")
        assert clock.get_attribute("data-deadline") == entry["my_deadline"]
        assert 23 * 3600 < int(clock.get_attribute("data-left") or 0) <= 24 * 3600
        games.wait_for_function("() => document.title === '(1) My games — Crown of Emara'")
        assert games.get_by_test_id("waiting-count").inner_text() == "1"
        assert games.locator("#favicon").get_attribute("href") == "/favicon-turn.svg"
        assert (
            games.locator("[data-testid=my-games-group]").first.get_attribute("data-group")
            == "your_turn"
        )
        screenshot(games, path=str(artifacts / "pace-my-games.png"))
        # the count is on every page, not only My games
        games.get_by_test_id("my-games-link").wait_for()
        games.locator("header a.brand-link").click()
        games.get_by_test_id("create-table").wait_for(timeout=10000)
        games.wait_for_function("() => document.title === '(1) Crown of Emara'")
        assert games.locator("#favicon").get_attribute("href") == "/favicon-turn.svg"
        games.go_back()

        # ---- back at the table through My games: my clock runs, from the server's deadline
        row.wait_for(timeout=15000)
        row.get_by_test_id("my-game-open").click()
        games.get_by_test_id("clocks").wait_for(timeout=15000)
        assert running_seat(games) == 1
        check_clock_against_server(games, table_id, 1)
        assert games.get_by_test_id("actions").is_visible()
        screenshot(games, path=str(artifacts / "pace-guest-turn.png"))
        host.evaluate("() => window.scrollTo(0, 0)")
        screenshot(host, path=str(artifacts / "pace-host-waits.png"))

        # ---- the host's vacation: both sides show the clock paused, then running again
        before = version(games)
        host.get_by_test_id("clock-pause").click()
        host.get_by_test_id("clock-paused").wait_for(timeout=15000)
        games.get_by_test_id("clock-paused").wait_for(timeout=15000)
        assert games.locator("[data-testid=clock-time]").count() == 0
        assert games.get_by_test_id("clock-pause").count() == 0  # only the host has the button
        host.evaluate("() => window.scrollTo(0, 0)")
        screenshot(host, path=str(artifacts / "pace-host-paused.png"))
        screenshot(games, path=str(artifacts / "pace-guest-paused.png"))
        host.get_by_test_id("clock-resume").click()
        games.locator("[data-testid=clock-time][data-seat='1']").wait_for(timeout=15000)
        assert games.get_by_test_id("clock-paused").count() == 0
        assert version(games) == before  # pausing is no move
        assert not watch.errors, watch.errors
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_a_seat_whose_time_ran_out_says_so_and_offers_it_back(server: Any, browser: Any) -> None:
    """The notice as the table screen draws it from a clock payload with the seat timed out (the
    sweeper's hand-over itself is the server's, tested there)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=15000)
        out = page.evaluate(
            own_modules("""async () => {
                 const { renderClocks } = await import('/js/pace.js');
                 const { h } = await import('/js/dom.js');
                 let reclaimed = 0;
                 const ts = {
                   id: 'T', status: 'playing', view: { phase: 'play' }, mySeat: 1, seatBusy: false,
                   clock: { mode: 'turn', preset: '12h', paused: false,
                            since: new Date().toISOString(), increment: 0, window: 43200, seats: [
                     { seat: 0, bank: 43000, running: true, timed_out: false,
                       deadline: new Date(Date.now() + 3600e3).toISOString() },
                     { seat: 1, bank: -3, running: false, timed_out: true, deadline: null }] },
                   nameOf: (s) => ['Hana', 'Gustav'][s],
                   botLevelOf: (s) => (s === 1 ? 'greedy' : null),
                   botPlaysMe() { return true; },
                   isHost: () => false,
                   reclaim() { reclaimed += 1; },
                 };
                 const box = h('div', { id: 'probe' }, renderClocks(ts));
                 document.body.append(box);
                 box.querySelector('[data-testid=timeout-reclaim]').click();
                 return { note: box.querySelector('[data-testid=timed-out]').textContent,
                          tag: box.querySelector('[data-seat="1"] .timed-out').textContent,
                          ticking: box.querySelectorAll('[data-testid=clock-time]').length,
                          pause: box.querySelectorAll('[data-testid=clock-pause]').length,
                          reclaimed };
               }""")
        )
        assert out["note"].startswith("Your time ran out — a bot is playing your seat.")
        assert out["note"].endswith("Take it back")
        assert "time ran out" in out["tag"]
        assert out["ticking"] == 1 and out["pause"] == 0 and out["reclaimed"] == 1
    finally:
        ctx.close()


def test_a_device_clock_far_off_the_servers_is_corrected(server: Any, browser: Any) -> None:
    """The clocks count down to the server's instant by the server's time: a device clock an hour
    behind (as the Date header shows) is corrected; a second's difference is not touched."""
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=15000)
        out = page.evaluate(
            own_modules("""async () => {
                 const { noteServerDate, secondsUntil } = await import('/js/pace.js');
                 const now = Date.now();
                 const deadline = new Date(now + 7200e3).toISOString();
                 const plain = secondsUntil(deadline);
                 noteServerDate(new Date(now + 3600e3).toUTCString(), now, now);
                 const ahead = secondsUntil(deadline);
                 noteServerDate(new Date(now + 1000).toUTCString(), now, now);
                 const near = secondsUntil(deadline);
                 return { plain, ahead, near };
               }""")
        )
        assert 7190 < out["plain"] <= 7200
        assert 3590 < out["ahead"] <= 3601
        assert abs(out["near"] - out["plain"]) < 5
    finally:
        ctx.close()


def test_a_live_chess_clock_ticks_for_the_seat_to_act_and_shows_the_banks(
    server: Any, browser: Any
) -> None:
    """Live 10+20 against a bot: the player's clock counts down from the server's deadline, the
    bot's seat shows its bank (a bot never times out), and the lobby said the pace in words."""
    ctx = browser.new_context(viewport=VIEWPORT)
    watch = ConsoleWatch()
    try:
        page = ctx.new_page()
        watch.attach(page, "player")
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Lena")
        page.get_by_test_id("pace").select_option("live:10+20")
        page.get_by_test_id("start-player").select_option("0")
        page.get_by_test_id("create-table").click()
        assert (
            page.get_by_test_id("lobby-pace").inner_text() == "Live, clock 10 min + 20 s per turn"
        )
        page.locator("[data-testid=add-bot][data-seat='1']").click()
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=start-game]').disabled", timeout=15000
        )
        page.get_by_test_id("start-game").click()
        page.get_by_test_id("clocks").wait_for(timeout=15000)
        table_id = page.url.rsplit("/t/", 1)[1].split("?")[0]
        clock = page.evaluate(GAME, table_id)["clock"]
        assert clock["mode"] == "live" and clock["preset"] == "10+20"
        shown = page.locator("[data-testid=clock-time][data-seat='0']")
        assert shown.get_attribute("data-deadline") == clock["seats"][0]["deadline"]
        assert 590 < int(shown.get_attribute("data-left") or 0) <= 600
        assert page.locator("[data-testid=clock-bank][data-seat='1']").inner_text() == "10:00"
        assert page.get_by_test_id("clock-pause").count() == 0  # no vacation on a live clock
        assert (
            page.locator(".clock-pace").inner_text().endswith("Live, clock 10 min + 20 s per turn")
        )
        assert not watch.errors, watch.errors
    finally:
        ctx.close()


FAKE_EVENTS = """(() => {
  window.__streams = [];
  class FakeEventSource extends EventTarget {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSED = 2;
    constructor(url) {
      super();
      this.url = url;
      this.readyState = 0;
      window.__streams.push(this);
    }
    close() { this.readyState = 2; }
    emit(type, data) { this.readyState = type === 'error' ? this.readyState : 1;
                       this.dispatchEvent(data === undefined ? new Event(type)
                         : new MessageEvent(type, { data: JSON.stringify(data) })); }
  }
  window.EventSource = FakeEventSource;
})()"""


# Sends `tables` with the count of waiting tables and tells whether the header shows it.
COUNT_SHOWN = """(n) => {
  window.__streams[0].emit('tables', { table_id: 'T1', kind: 'game', version: 1, waiting: n });
  return document.querySelector('[data-testid=waiting-count]').dataset.count === String(n);
}"""


def test_the_my_games_feed_reads_again_on_each_event_and_reopens_a_refused_stream(
    server: Any, browser: Any
) -> None:
    """The page's one event stream (replaced by a recording fake): `tables` with the count of
    tables waiting sets the header's count, without a read; `tables` without it reads My games
    again, and so does every `tables` on the My games page, which shows the list; a stream the
    server refused for good (closed) is opened again by the page."""
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=15000)
        page.evaluate(
            """async () => { await fetch('/api/profiles', { method: 'POST',
                 headers: { 'Content-Type': 'application/json' },
                 body: JSON.stringify({ name: 'Fiona' }) });
               localStorage.setItem('emara.signed_in', '1'); }"""
        )
        page.add_init_script(FAKE_EVENTS)
        page.reload()
        page.get_by_test_id("my-games-link").wait_for(timeout=15000)
        page.wait_for_function("() => window.__streams.length === 1", timeout=15000)
        assert page.evaluate("window.__streams[0].url") == "/api/me/events"
        with page.expect_request(lambda r: r.url.endswith("/api/me/tables"), timeout=15000):
            page.evaluate("window.__streams[0].emit('hello')")
        # While that read is under way a count that comes reads the list too (the read could
        # answer an older count): the event is sent until the count shows.
        page.wait_for_function(COUNT_SHOWN, arg=3, timeout=15000)
        read: list[str] = []
        page.on("request", lambda r: r.url.endswith("/api/me/tables") and read.append(r.url))
        page.wait_for_function(COUNT_SHOWN, arg=4, timeout=15000)
        count = page.get_by_test_id("waiting-count").first
        assert count.inner_text() == "4" and page.title().startswith("(4) ")
        with page.expect_request(lambda r: r.url.endswith("/api/me/tables"), timeout=15000):
            page.evaluate("window.__streams[0].emit('tables')")  # no count: the list is read
        assert len(read) == 1  # the count came without a read
        page.get_by_test_id("my-games-link").click()
        page.wait_for_url("**/games", timeout=15000)
        page.get_by_test_id("my-games").wait_for(timeout=15000)
        with page.expect_request(lambda r: r.url.endswith("/api/me/tables"), timeout=15000):
            page.evaluate("window.__streams.at(-1).emit('tables', {table_id: 'T1', waiting: 0})")
        # refused for good: closed, then an error; the page opens a new stream after a pause
        page.evaluate("window.__streams[0].readyState = 2; window.__streams[0].emit('error')")
        page.wait_for_function("() => window.__streams.length === 2", timeout=20000)
        with page.expect_request(lambda r: r.url.endswith("/api/me/tables"), timeout=15000):
            page.evaluate("window.__streams[1].emit('hello')")
    finally:
        ctx.close()


def my_table(tid: str, group: str, **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": tid, "group": group, "status": "playing", "host_name": "Ada",
        "names": ["Ada", "Bob"], "seat_count": 2, "my_seat": 1, "my_seat_bot": None,
        "my_turn": False, "my_deadline": None, "my_bank": None, "clock_since": None,
        "paused": False, "pace": {"mode": "turn", "hours": 24}, "version": 3,
        "updated_at": None, "result": None,
    }  # fmt: skip
    row.update(extra)
    return row


def test_my_games_lists_my_turn_first_and_finished_games_last_with_the_result(
    server: Any, browser: Any
) -> None:
    """My games as the page draws GET /api/me/tables (answered here, service worker off so the
    answer can be routed): the groups in order, time left, paused, a bot on my seat, results."""
    soon = "2099-01-01T00:00:00+00:00"
    answer = {
        "waiting": 1,
        "etag": "x",
        "tables": [
            my_table("T1", "your_turn", my_turn=True, my_deadline=soon, my_bank=3600.0),
            my_table("T2", "playing", paused=True),
            my_table("T3", "playing", my_seat_bot="greedy"),
            my_table("T4", "lobby", status="lobby", names=["Ada", None]),
            my_table(
                "T5", "finished", status="finished",
                result={"place": 1, "of": 2, "score": 57, "won": None},
            ),
            my_table(
                "T6", "finished", status="finished", names=["Bob"], seat_count=1, my_seat=0,
                result={"place": 1, "of": 1, "score": 80, "won": True},
            ),
        ],
    }  # fmt: skip
    ctx = browser.new_context(viewport=VIEWPORT, service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=15000)
        page.evaluate(
            """async () => { await fetch('/api/profiles', { method: 'POST',
                 headers: { 'Content-Type': 'application/json' },
                 body: JSON.stringify({ name: 'Bob' }) });
               localStorage.setItem('emara.signed_in', '1'); }"""
        )
        page.route("**/api/me/tables", lambda route: route.fulfill(json=answer))
        page.goto(server.url("/games"))
        page.locator("[data-testid=my-game][data-table=T6]").wait_for(timeout=15000)
        groups = page.locator("[data-testid=my-games-group]")
        assert [groups.nth(i).get_attribute("data-group") for i in range(groups.count())] == [
            "your_turn", "playing", "lobby", "finished",
        ]  # fmt: skip
        rows = page.get_by_test_id("my-game")
        assert [rows.nth(i).get_attribute("data-table") for i in range(rows.count())] == [
            "T1", "T2", "T3", "T4", "T5", "T6",
        ]  # fmt: skip
        row = lambda tid: page.locator(f"[data-testid=my-game][data-table={tid}]")  # noqa: E731
        assert row("T1").get_by_test_id("my-game-time").get_attribute("data-deadline") == soon
        assert row("T1").get_by_test_id("my-game-open").inner_text() == "Play"
        assert row("T2").get_by_test_id("my-game-paused").inner_text().endswith("paused")
        assert (
            row("T3").get_by_test_id("my-game-bot").inner_text().endswith("a bot plays your seat")
        )
        assert "—" in row("T4").inner_text()
        assert row("T5").get_by_test_id("my-game-result").inner_text() == "Place 1 of 2 · 57 points"
        assert (
            row("T6").get_by_test_id("my-game-result").inner_text()
            == "You beat Victoria · 80 points"
        )
        assert row("T5").get_by_test_id("my-game-open").inner_text() == "View the result"
        page.wait_for_function("() => document.title === '(1) My games — Crown of Emara'")
    finally:
        ctx.close()
