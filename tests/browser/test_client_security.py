"""The browser client under its Content-Security-Policy: the session stays in the HttpOnly cookie,
the recovery code is shown once, a hostile profile name is only ever text, moves go over the
socket, and no policy violation happens during a game.

Uses the browser suite's uvicorn server and Chromium (tests/browser/conftest.py). Missing
Chromium/Playwright skips loudly; with CI=true it fails instead.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.modules import own_modules
from tests.browser.test_play import VIEWPORT, ConsoleWatch, Player, version, wait_version_above

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]

EVIL = "<img src=x onerror=alert(1)>"
# Counts every CSP violation the page reports (the console also shows them as errors).
CSP_WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
"""
STORAGE_JS = """() => JSON.stringify({
  local: Object.entries(localStorage),
  session: Object.entries(sessionStorage),
  cookie: document.cookie,
})"""


@contextmanager
def person(browser: Any, **options: Any) -> Iterator[tuple[Any, ConsoleWatch, list[str]]]:
    """A browser context with one page, watched for console errors and dialogs."""
    ctx = browser.new_context(viewport=VIEWPORT, **options)
    watch = ConsoleWatch()
    dialogs: list[str] = []
    try:
        page = ctx.new_page()
        page.add_init_script(CSP_WATCH)
        watch.attach(page, "page")

        def on_dialog(d: Any) -> None:
            dialogs.append(d.message)
            d.dismiss()

        page.on("dialog", on_dialog)
        yield page, watch, dialogs
    finally:
        ctx.close()


def create_profile_with_table(page: Any, server: Any, name: str, seats: str) -> dict[str, Any]:
    """Landing page: a name and a table of `seats`; returns the POST /api/profiles answer."""
    page.goto(server.url("/"))
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("seats").select_option(seats)
    with page.expect_response(
        lambda r: r.url.endswith("/api/profiles") and r.request.method == "POST"
    ) as created:
        page.get_by_test_id("create-table").click()
    body: dict[str, Any] = created.value.json()
    return body


def test_no_token_or_recovery_code_in_script_reach(server: Any, browser: Any) -> None:
    with person(browser) as (page, watch, _):
        body = create_profile_with_table(page, server, "Ida", "2")
        page.get_by_test_id("lobby").wait_for(timeout=10000)
        token, code = body["token"], body["recovery_code"]
        cookies = {c["name"]: c for c in page.context.cookies()}
        assert cookies["emara_token"]["httpOnly"] is True
        for where in (server.url("/"), page.url):
            page.goto(where)
            page.get_by_test_id("profile-name").wait_for(timeout=10000)
            reach = page.evaluate(STORAGE_JS)
            assert token not in reach and code not in reach, reach
            assert code.replace("-", "") not in reach.replace("-", "")
            assert "emara_token" not in json.loads(reach)["cookie"]
        # who am I comes from the server: the header names the profile after a reload
        assert page.get_by_test_id("profile-name").inner_text() == "Ida"
        assert watch.errors == []


def test_the_recovery_code_is_shown_once_with_copy_and_download(server: Any, browser: Any) -> None:
    with person(browser, permissions=["clipboard-read", "clipboard-write"]) as (page, watch, _):
        body = create_profile_with_table(page, server, "Jana", "2")
        panel = page.get_by_test_id("recovery-panel")
        panel.wait_for(timeout=10000)
        code = body["recovery_code"]
        assert page.get_by_test_id("recovery-code").inner_text() == code
        assert "will not be shown again" in panel.inner_text()

        page.get_by_test_id("recovery-copy").click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=recovery-copy]').textContent === 'Copied'"
        )
        assert page.evaluate("() => navigator.clipboard.readText()") == code

        with page.expect_download() as download:
            page.get_by_test_id("recovery-download").click()
        path = download.value.path()
        assert download.value.suggested_filename == "emara-recovery-code.txt"
        with open(path, encoding="utf-8") as f:
            assert code in f.read()

        # The panel stays while the player moves around the app, until dismissed…
        page.get_by_test_id("lobby").wait_for(timeout=10000)
        assert panel.is_visible()
        page.get_by_test_id("recovery-done").click()
        assert page.get_by_test_id("recovery-panel").count() == 0
        # …and never comes back: not after a reload, not on another page.
        page.reload()
        page.get_by_test_id("lobby").wait_for(timeout=10000)
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for()
        assert page.get_by_test_id("recovery-panel").count() == 0
        assert code not in page.content()
        assert watch.errors == []


def test_a_hostile_name_is_text_everywhere(server: Any, browser: Any) -> None:
    with person(browser) as (page, watch, dialogs):
        # The lobby of a table for two: the seat list.
        create_profile_with_table(page, server, EVIL, "2")
        seat = page.get_by_test_id("lobby-seat").first
        seat.wait_for(timeout=10000)
        assert EVIL in seat.inner_text()
        assert EVIL in page.get_by_test_id("profile-name").inner_text()

        # A solo game: player board, score track and, after a few moves, the log.
        page.goto(server.url("/"))
        page.get_by_test_id("seats").select_option("1")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("game").wait_for(timeout=15000)
        player = Player(page, random.Random(3))
        for _ in range(60):
            if EVIL in page.locator("#log-list").inner_text():
                break
            if not player.act():
                page.wait_for_timeout(100)
        assert EVIL in page.get_by_test_id("player-board").first.inner_text()
        assert EVIL in page.get_by_test_id("score-track").inner_text()
        assert EVIL in page.locator("#log-list").inner_text()

        # The record sheet, with the name in the header.
        page.goto(server.url("/records"))
        page.get_by_test_id("high-scores").wait_for(timeout=10000)
        assert EVIL in page.get_by_test_id("profile-name").inner_text()

        assert page.evaluate("() => document.querySelectorAll('img').length") == 0
        assert dialogs == []
        assert page.evaluate("() => window.__csp") == []
        assert watch.errors == []


def test_moves_go_over_the_socket_under_the_policy(server: Any, browser: Any) -> None:
    with person(browser) as (page, watch, dialogs):
        posts: list[str] = []
        page.on(
            "request",
            lambda r: posts.append(r.url) if r.method == "POST" and "/moves" in r.url else None,
        )
        sent: list[dict[str, Any]] = []
        received: list[dict[str, Any]] = []
        by_socket: dict[int, list[dict[str, Any]]] = {}  # each socket's frames, in order

        def on_socket(ws: Any) -> None:
            mine = by_socket.setdefault(id(ws), [])

            def got(payload: Any) -> None:
                frame = json.loads(payload)
                received.append(frame)
                mine.append(frame)

            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
            ws.on("framereceived", got)

        page.on("websocket", on_socket)
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Kim")
        page.get_by_test_id("seats").select_option("1")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("game").wait_for(timeout=15000)
        player = Player(page, random.Random(5))
        moved = 0
        for _ in range(200):
            if moved >= 6:
                break
            if player.act():
                moved += 1
            else:
                page.wait_for_timeout(100)
        assert moved == 6
        assert posts == [], f"moves were POSTed: {posts}"
        moves = [f for f in sent if f.get("type") == "move"]
        assert len(moves) >= 6
        assert sent[0]["type"] == "hello"
        for m in moves:
            assert isinstance(m["ref"], int) and m["move_id"] and "kind" in m["move"]
            answers = [f for f in received if f.get("ref") == m["ref"]]
            assert [a["type"] for a in answers] == ["accepted"], answers
            accepted = answers[0]
            # on the mover's socket, its accepted comes before the update (a delta: the page asks
            # for them) of the same version
            frames = next(fs for fs in by_socket.values() if any(f is accepted for f in fs))
            at = next(i for i, f in enumerate(frames) if f is accepted)
            update = next(
                i
                for i, f in enumerate(frames)
                if f.get("type") in ("update", "delta") and f.get("version") == accepted["version"]
            )
            assert at < update
        assert version(page) >= moves[-1]["expected_version"] + 1

        headers = page.request.get(server.url("/")).headers
        assert "script-src 'self'" in headers["content-security-policy"]
        assert page.evaluate("() => window.__csp") == []
        assert dialogs == []
        assert watch.errors == [], "console errors:\n" + "\n".join(watch.errors)


def test_a_stale_move_is_refused_over_the_socket_and_changes_nothing(
    server: Any, browser: Any
) -> None:
    with person(browser) as (page, _watch, _):
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Lou")
        page.get_by_test_id("seats").select_option("1")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("game").wait_for(timeout=15000)
        before = version(page)
        # A stale expected_version, sent through the page's own socket module as a click would.
        page.evaluate(
            own_modules("""async () => {
                 const { TableSocket, tableSocketUrl } = await import('/js/socket.js');
                 const id = location.pathname.split('/').pop();
                 const s = new TableSocket({ url: tableSocketUrl(id, null) });
                 s.start();
                 try {
                   await s.request({ type: 'move', move: { kind: 'end_turn' },
                                     expected_version: 0, move_id: 'stale-1' });
                   window.__answer = 'accepted';
                 } catch (e) { window.__answer = e.code; } finally { s.stop(); }
               }""")
        )
        assert page.evaluate("() => window.__answer") in ("stale_version", "illegal_move")
        assert version(page) == before
        # and the page's own move still goes through
        assert Player(page, random.Random(1)).act()
        wait_version_above(page, before)


def test_a_recovery_code_brings_the_profile_to_another_browser(server: Any, browser: Any) -> None:
    with person(browser) as (first, _watch, _):
        code = create_profile_with_table(first, server, "Nia", "2")["recovery_code"]
    with person(browser) as (page, watch, _):
        page.goto(server.url("/"))
        page.get_by_test_id("profile-menu").locator("summary").click()
        page.get_by_test_id("recover-input").fill(code.lower())
        with page.expect_response(lambda r: r.url.endswith("/api/profiles/recover")) as answer:
            page.get_by_test_id("recover-go").click()
        body = answer.value.json()
        page.get_by_test_id("profile-name").wait_for(timeout=10000)
        assert page.get_by_test_id("profile-name").inner_text() == "Nia"
        new_code = body.get("recovery_code")
        if new_code:  # one-time codes: the recovery hands out the next one, shown once
            assert new_code != code
            assert page.get_by_test_id("recovery-code").inner_text() == new_code
        else:
            assert page.get_by_test_id("recovery-panel").count() == 0
        reach = page.evaluate(STORAGE_JS)
        assert body["token"] not in reach and code not in reach
        assert (new_code or code) not in reach
        page.goto(server.url("/"))
        page.get_by_test_id("profile-name").wait_for(timeout=10000)
        assert watch.errors == []
    with person(browser) as (page, _watch, _):
        # a wrong code is refused in words and signs nobody in
        page.goto(server.url("/"))
        page.get_by_test_id("profile-menu").locator("summary").click()
        page.get_by_test_id("recover-input").fill("0000-0000-0000-0000")
        page.get_by_test_id("recover-go").click()
        error = page.get_by_test_id("error").first
        error.wait_for(timeout=10000)
        assert "recovery code" in error.inner_text()
        assert page.get_by_test_id("profile-name").count() == 0


def test_a_refused_move_is_shown_in_words_and_changes_nothing(server: Any, browser: Any) -> None:
    """The socket is proxied: the page's move frame is answered with the server's refusal."""
    with person(browser) as (page, _watch, dialogs):
        refused: list[dict[str, Any]] = []

        def proxy(ws: Any) -> None:
            upstream = ws.connect_to_server()

            def from_page(message: str) -> None:
                frame = json.loads(message)
                if frame.get("type") != "move":
                    upstream.send(message)
                    return
                refused.append(frame)
                ws.send(
                    json.dumps(
                        {
                            "type": "error",
                            "code": "stale_version",
                            "message": "the table has moved on",
                            "move_id": frame["move_id"],
                            "ref": frame["ref"],
                        }
                    )
                )

            ws.on_message(from_page)

        page.route_web_socket(re.compile(r"/ws/tables/"), proxy)
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Oli")
        page.get_by_test_id("seats").select_option("1")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("game").wait_for(timeout=15000)
        before = version(page)
        page.locator("[data-testid=legal-move], [data-testid=end-turn]").first.click()
        error = page.get_by_test_id("error").first
        error.wait_for(timeout=10000)
        words = json.loads((ROOT / "static" / "i18n" / "en.json").read_text())["err.stale_version"]
        assert words in error.inner_text()
        assert len(refused) == 1 and refused[0]["expected_version"] == before
        assert version(page) == before
        # the page can still choose (it asked the server again after the refusal)
        page.locator("[data-testid=legal-move], [data-testid=end-turn]").first.wait_for()
        assert dialogs == []


def test_a_move_cut_off_by_a_drop_goes_again_after_hello(server: Any, browser: Any) -> None:
    """The socket is proxied and dropped as the first move leaves the page: the page reconnects,
    says hello with its version, then sends the same move (same move_id) and gets it accepted."""
    with person(browser) as (page, watch, _):
        sockets: list[list[dict[str, Any]]] = []
        dropped: list[dict[str, Any]] = []

        def proxy(ws: Any) -> None:
            upstream = ws.connect_to_server()
            frames: list[dict[str, Any]] = []
            sockets.append(frames)

            def from_page(message: str) -> None:
                frame = json.loads(message)
                frames.append(frame)
                if frame.get("type") == "move" and not dropped:
                    dropped.append(frame)
                    ws.close()
                    return
                upstream.send(message)

            ws.on_message(from_page)

        page.route_web_socket(re.compile(r"/ws/tables/"), proxy)
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Pia")
        page.get_by_test_id("seats").select_option("1")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("game").wait_for(timeout=15000)
        before = version(page)
        count = len(sockets)
        page.locator("[data-testid=legal-move], [data-testid=end-turn]").first.click()
        wait_version_above(page, before)
        assert len(dropped) == 1
        again = sockets[count]
        assert [f["type"] for f in again[:2]] == ["hello", "move"]
        assert again[0]["since"] == before
        assert again[1]["move_id"] == dropped[0]["move_id"]
        assert again[1]["expected_version"] == before
        assert page.get_by_test_id("error").count() == 0
        assert watch.errors == []
