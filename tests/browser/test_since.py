"""Since you looked, in the browser: a person away while two other seats moved comes back to the
table and reads what they did, sees the changed players and the new log lines marked, and the
page tells the server what it has seen. Screenshots of the summary in English and Czech land in
test-artifacts/ (since-summary-en.png, since-summary-cs.png).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from app.devtools.stack import ServerProcess
from tests.browser.shots import screenshot
from tests.browser.test_play import VIEWPORT, ConsoleWatch
from tests.conftest import pick_move

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 30000  # ms: generous, for a loaded machine
SUMMARY = "[data-testid=since-summary]"
BOARD = "[data-testid=player-board][data-seat='{}']"


class Api:
    """Plain HTTP for the seats that play without a browser."""

    def __init__(self, server: ServerProcess) -> None:
        self.http = server.http()

    def call(self, method: str, path: str, token: str, **kw: Any) -> Any:
        r = self.http.request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
        assert r.status_code < 300, r.text
        return r.json()

    def profile(self, name: str) -> str:
        r = self.http.post("/api/profiles", json={"name": name})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])

    def play(self, tid: str, tokens: list[str], seat: int, rng: random.Random) -> int:
        """One move for ``seat``: the version it made."""
        g = self.call("GET", f"/api/tables/{tid}/game", tokens[seat])
        body = {
            "move": pick_move(g["legal_moves"], rng),
            "expected_version": g["version"],
            "move_id": f"m{g['version']}",
        }
        return int(
            self.call("POST", f"/api/tables/{tid}/moves", tokens[seat], json=body)["version"]
        )

    def to_act(self, tid: str, token: str) -> list[int]:
        return list(self.call("GET", f"/api/tables/{tid}/game", token)["view"]["to_act"])


SIGNED_IN = "localStorage.setItem('emara.signed_in', '1')"
# The page's marks, watched: the versions it sends as seen and the marks the server answers, by
# the table socket (`seen`, `seen_marked`) or, while the socket is not open yet, by POST …/seen.
WATCH_MARKS = """
window.__seen = []; window.__marked = [];
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (e) => {
      const f = JSON.parse(e.data);
      if (f.type === 'seen_marked') window.__marked.push(f.last_seen_version);
    });
  }
  send(data) {
    const f = JSON.parse(data);
    if (f.type === 'seen') window.__seen.push(f.version);
    return super.send(data);
  }
};
const fetched = window.fetch;
window.fetch = async (input, init) => {
  const url = String(input && input.url ? input.url : input);
  const mark = url.endsWith('/seen');
  if (mark) window.__seen.push(JSON.parse(init.body).version);
  const res = await fetched(input, init);
  if (mark && res.ok) window.__marked.push((await res.clone().json()).last_seen_version);
  return res;
};
"""


def away_while_two_moved(server: Any, ctx: Any, watch: ConsoleWatch) -> tuple[str, int, int]:
    """Ann (the browser context) plays her first turn, looks at the table, leaves; Bo and Cy
    play until Ann is to act again. Returns (table id, Ann's mark, the version now)."""
    api = Api(server)
    r = ctx.request.post(server.url("/api/profiles"), data={"name": "Ann"})
    ctx.add_init_script(SIGNED_IN)  # the cookie came by API: this browser knows it signed in
    assert r.ok, r.text()
    tokens = [r.json()["token"], api.profile("Bo"), api.profile("Cy")]
    t = api.call(
        "POST", "/api/tables", tokens[0], json={"seats": 3, "options": {"start_player": 0}}
    )
    tid = t["id"]
    for token in tokens[1:]:
        api.call("POST", f"/api/tables/{tid}/join", token, json={"invite_code": t["invite_code"]})
    api.call("POST", f"/api/tables/{tid}/start", tokens[0])
    rng = random.Random(4)
    for _ in range(60):
        if 0 not in api.to_act(tid, tokens[0]):
            break
        api.play(tid, tokens, 0, rng)
    ctx.add_init_script(WATCH_MARKS)
    page = ctx.new_page()
    watch.attach(page, "first look")
    page.goto(server.url(f"/t/{tid}"))
    page.wait_for_function("() => window.__marked.length > 0", timeout=WAIT)
    mark = int(page.evaluate("() => window.__marked[0]"))
    assert mark == int(page.evaluate("document.body.dataset.version")) > 0
    assert page.locator(SUMMARY).count() == 0  # nothing happened since the start
    page.close()
    movers: set[int] = set()
    for _ in range(300):
        to_act = api.to_act(tid, tokens[0])
        if movers == {1, 2} and 0 in to_act:
            break
        seat = to_act[0]
        api.play(tid, tokens, seat, rng)
        if seat != 0:
            movers.add(seat)
    else:
        raise AssertionError("Bo and Cy never both moved before Ann's turn")
    now = int(api.call("GET", f"/api/tables/{tid}/game", tokens[0])["version"])
    return tid, mark, now


@pytest.mark.parametrize(
    ("lang", "words", "motion"),
    [("en", "Since you looked", "no-preference"), ("cs", "Od vaší", "reduce")],
)
def test_a_person_away_while_two_seats_moved_sees_what_they_did(
    server: Any, browser: Any, artifacts: Path, lang: str, words: str, motion: str
) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=VIEWPORT, reduced_motion=motion)
    ctx.add_init_script(f"localStorage.setItem('emara.lang', '{lang}')")
    try:
        tid, mark, now = away_while_two_moved(server, ctx, watch)
        page = ctx.new_page()
        watch.attach(page, "back")
        page.goto(server.url(f"/t/{tid}"))
        page.wait_for_selector(SUMMARY, timeout=WAIT)
        # the page marked the version it showed, after asking what changed
        page.wait_for_function("() => window.__marked.length > 0", timeout=WAIT)
        assert page.evaluate("() => window.__marked") == [now]
        summary = page.locator(SUMMARY)
        assert words in summary.inner_text()
        lines = page.locator("[data-testid=since-player]")
        assert lines.count() == 2
        texts = [lines.nth(i).inner_text() for i in range(2)]
        assert texts[0].startswith("Bo") and texts[1].startswith("Cy"), texts
        assert [lines.nth(i).get_attribute("data-seat") for i in range(2)] == ["1", "2"]
        # both players' boards are marked as changed, and every new log line
        for seat in (1, 2):
            assert "changed" in (page.locator(BOARD.format(seat)).get_attribute("class") or "")
        new_lines = page.locator("#log-list li.since-new")
        assert new_lines.count() > 0
        versions = {
            int(v) for v in new_lines.evaluate_all("els => els.map(e => e.dataset.version)")
        }
        assert versions and min(versions) > mark and max(versions) == now
        old = page.locator(f"#log-list li[data-version='{mark}']")
        assert "since-new" not in (old.first.get_attribute("class") or "")
        # board elements named by the server's change keys are outlined where the page has them
        keyed = page.evaluate(
            "() => [...document.querySelectorAll('[data-key].changed')].map(e => e.dataset.key)"
        )
        assert all(isinstance(k, str) and k for k in keyed)
        # the marks pulse, unless the person asked for less motion: then a still outline
        style = page.evaluate(
            """() => { const s = getComputedStyle(document.querySelector('.changed'));
                       return [s.animationName, s.outlineStyle]; }"""
        )
        assert style == (["none", "solid"] if motion == "reduce" else ["since-pulse", "solid"])
        summary.scroll_into_view_if_needed()
        screenshot(page, path=str(artifacts / f"since-summary-{lang}.png"), full_page=False)
        # dismissed: the marks go, and opening the table again shows nothing new
        page.click("[data-testid=since-dismiss]")
        page.wait_for_selector(SUMMARY, state="detached", timeout=WAIT)
        assert page.locator(".changed").count() == 0
        page.close()
        again = ctx.new_page()
        with again.expect_response(lambda res: res.url.endswith("/since"), timeout=WAIT) as asked:
            again.goto(server.url(f"/t/{tid}"))
        assert asked.value.json()["from_version"] == now
        assert again.locator(SUMMARY).count() == 0
        assert watch.errors == []
    finally:
        ctx.close()


# A page whose visibility the test switches (headless Chromium is always "visible").
FAKE_VISIBILITY = """
window.__hidden = false;
Object.defineProperty(Document.prototype, 'visibilityState',
  {configurable: true, get() { return window.__hidden ? 'hidden' : 'visible'; }});
Object.defineProperty(Document.prototype, 'hidden',
  {configurable: true, get() { return window.__hidden; }});
"""
SET_HIDDEN = "h => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }"


def test_a_hidden_page_marks_nothing_and_shows_what_changed_when_it_comes_back(
    server: Any, browser: Any
) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.add_init_script("localStorage.setItem('emara.lang', 'en')")
    ctx.add_init_script(FAKE_VISIBILITY)
    ctx.add_init_script(WATCH_MARKS)
    try:
        api = Api(server)
        r = ctx.request.post(server.url("/api/profiles"), data={"name": "Ann"})
        ctx.add_init_script(SIGNED_IN)  # the cookie came by API: this browser knows it signed in
        assert r.ok, r.text()
        tokens = [r.json()["token"], api.profile("Bo")]
        t = api.call(
            "POST", "/api/tables", tokens[0], json={"seats": 2, "options": {"start_player": 0}}
        )
        tid = t["id"]
        api.call(
            "POST", f"/api/tables/{tid}/join", tokens[1], json={"invite_code": t["invite_code"]}
        )
        api.call("POST", f"/api/tables/{tid}/start", tokens[0])
        rng = random.Random(8)
        while 0 in api.to_act(tid, tokens[0]):
            api.play(tid, tokens, 0, rng)
        page = ctx.new_page()
        watch.attach(page, "ann")
        page.goto(server.url(f"/t/{tid}"))
        # the version on the page is marked (on the socket, or by request before it is open)
        page.wait_for_function("() => window.__marked.length > 0", timeout=WAIT)
        mark = int(page.evaluate("() => window.__marked[0]"))
        assert mark == int(page.evaluate("() => document.body.dataset.version"))
        assert page.evaluate("() => window.__seen") == [mark]
        page.evaluate(SET_HIDDEN, True)
        now = mark
        while 1 in api.to_act(tid, tokens[0]):
            now = api.play(tid, tokens, 1, rng)
        assert now > mark
        page.wait_for_function(
            "v => Number(document.body.dataset.version) === v", arg=now, timeout=WAIT
        )
        # rendered while hidden: not seen, nothing marked
        assert page.evaluate("() => window.__seen") == [mark]
        mine = ctx.request.get(server.url(f"/api/tables/{tid}/since")).json()
        assert mine["last_seen_version"] == mark and mine["to_version"] == now
        page.evaluate(SET_HIDDEN, False)
        page.wait_for_selector(SUMMARY, timeout=WAIT)
        page.wait_for_function("() => window.__marked.length > 1", timeout=WAIT)
        assert page.evaluate("() => window.__marked") == [mark, now]
        mine = ctx.request.get(server.url(f"/api/tables/{tid}/since")).json()
        assert mine["last_seen_version"] == now
        lines = page.locator("[data-testid=since-player]")
        assert lines.count() == 1 and lines.first.inner_text().startswith("Bo ")
        assert "changed" in (page.locator(BOARD.format(1)).get_attribute("class") or "")
        assert watch.errors == []
    finally:
        ctx.close()
