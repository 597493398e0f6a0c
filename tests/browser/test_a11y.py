"""Accessibility: axe-core over every kind of page, names and keys on the board, visible focus.

axe-core (bundled by axe-playwright-python, so it runs offline) is injected through Playwright's
evaluate, which the page's Content-Security-Policy does not block; the check fails on any
serious or critical violation of every page a player meets (home, a lobby, a running table, a
finished one, its replay, solo, records, My games, the history, the profile) at 1366×900 and
at 390×844, in the light colours and in the dark ones (the browser asking for
prefers-color-scheme: dark).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.modules import own_modules
from tests.browser.shots import screenshot
from tests.browser.test_phone import (
    DESKTOP,
    PHONE,
    WAIT,
    assert_on_first_screen,
    two_players,
    wait_turn_known,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BLOCKING = ("serious", "critical")
AXE_LOADED = "() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"


def axe_violations(page: Any) -> list[str]:
    """The serious and critical axe-core violations of the page, one line each. axe-core (half
    a megabyte of script) is put into a document once, not before every run of it."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe

    if not page.evaluate(AXE_LOADED):
        page.evaluate(Axe().axe_script)
    response = page.evaluate("(options) => axe.run(options)", DEFAULT_OPTIONS)
    out = []
    for v in response.get("violations", []):
        if v.get("impact") in BLOCKING:
            targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])][:5]
            out.append(f"{v['impact']} {v['id']}: {v.get('help')} — {targets}")
    return out


# Each page a player meets, and what shows that it is drawn.
PAGES = {
    "home": ("/", "[data-testid=create-table]"),
    "lobby": ("/t/{lobby}", "[data-testid=invite-link]"),
    "playing": ("/t/{playing}", "[data-testid=turn-indicator]"),
    "finished": ("/t/{finished}", "[data-testid=final-scores] [data-testid=breakdown]"),
    "solo": ("/solo", "main h1, main h2"),
    "records": ("/records", "main h1, main h2"),
    "my games": ("/games", "[data-testid=my-game]"),
    "profile": ("/profile", "main h1"),
    "rules": ("/rules", "[data-testid=rules-page]"),
    "replay": ("/r/{finished}", "[data-testid=replay-board][data-position]"),
    "history": ("/history", "[data-testid=history-game]"),
}


def played_some(server: Any, tokens: list[str], table_id: str, api: Any, moves: int = 40) -> None:
    """``moves`` legal moves of a started table, over HTTP (the first legal one each time)."""
    done = 0
    while done < moves:
        for n, token in enumerate(tokens):
            g = api(server, token, "GET", f"/api/tables/{table_id}/game")
            if g["legal_moves"]:
                body = {
                    "move": g["legal_moves"][-1],
                    "expected_version": g["version"],
                    "move_id": f"a{done}-{n}",
                }
                api(server, token, "POST", f"/api/tables/{table_id}/moves", json=body)
                done += 1


SCHEMES = ("light", "dark")


def axe_in_both_schemes(page: Any, found: dict[str, list[str]], name: str) -> None:
    """The page's violations in the light colours and in the dark ones (the browser asking for
    prefers-color-scheme: dark, which the stylesheet follows without a reload)."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        found[f"{name}, {scheme}"] = axe_violations(page)
    page.emulate_media(color_scheme="light")


def test_axe_every_page_desktop_and_phone_light_and_dark(server: Any, browser: Any) -> None:
    from tests.browser.test_reach import api, finished_game, sign_up  # it imports this module

    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    try:
        page, other = (c.new_page() for c in contexts)
        ann = sign_up(page, server, "Ann")
        ben = sign_up(other, server, "Ben")
        tokens = [ann["token"], ben["token"]]
        lobby = api(server, tokens[0], "POST", "/api/tables", json={"seats": 2, "options": {}})
        playing = api(server, tokens[0], "POST", "/api/tables", json={"seats": 2, "options": {}})
        join = {"invite_code": playing["invite_code"]}
        api(server, tokens[1], "POST", f"/api/tables/{playing['id']}/join", json=join)
        api(server, tokens[0], "POST", f"/api/tables/{playing['id']}/start")
        played_some(server, tokens, playing["id"], api)  # a log long enough to scroll
        ids = {
            "lobby": lobby["id"],
            "playing": playing["id"],
            "finished": finished_game(server, tokens),
        }
        found: dict[str, list[str]] = {}
        for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            for name, (path, ready) in PAGES.items():
                page.goto(server.url(path.format(**ids)))
                page.locator(ready).first.wait_for(timeout=WAIT)
                if name == "playing" and size_name == "desktop":
                    # the log scrolls: a scrollable region must be reachable by keyboard
                    assert page.evaluate(
                        "() => { const l = document.getElementById('log-list');"
                        " return l.scrollHeight > l.clientHeight; }"
                    )
                axe_in_both_schemes(page, found, f"{name}, {size_name}")
                if name == "playing":  # the profile menu, open over the table
                    page.get_by_test_id("profile-menu").locator("summary").click()
                    page.get_by_test_id("theme-select").wait_for(timeout=WAIT)
                    axe_in_both_schemes(page, found, f"menu, {size_name}")
        assert len(found) == 2 * 2 * (len(PAGES) + 1)
        assert found == {k: [] for k in found}
    finally:
        for c in contexts:
            c.close()


def test_axe_start_and_a_lobby_made_from_it(server: Any, browser: Any) -> None:
    """The start page of someone with no profile yet, and the lobby its form makes (the tour
    above checks the other pages, for a person signed up)."""
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        found: dict[str, list[str]] = {}
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").wait_for(timeout=WAIT)
        found["start"] = axe_violations(page)
        page.get_by_test_id("name-input").fill("Alice")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("invite-link").wait_for(timeout=WAIT)
        found["lobby"] = axe_violations(page)
        assert found == {"start": [], "lobby": []}
    finally:
        ctx.close()


def test_axe_running_table_desktop_and_phone(server: Any, browser: Any) -> None:
    with two_players(browser, server, DESKTOP) as pages:
        mine, other = wait_turn_known(pages)
        found = {"my turn": axe_violations(mine), "their turn": axe_violations(other)}
        for p in pages:
            p.set_viewport_size(PHONE)
            p.wait_for_function("() => document.querySelector('[data-layout=tabs]')", timeout=WAIT)
        found["phone, my turn"] = axe_violations(mine)
        other.get_by_test_id("tab-board").click()
        other.get_by_test_id("panel-board").locator(".rondels").wait_for(timeout=WAIT)
        found["phone, board"] = axe_violations(other)
        other.get_by_test_id("tab-players").click()
        other.get_by_test_id("panel-players").locator(".players").wait_for(timeout=WAIT)
        found["phone, players"] = axe_violations(other)
        assert found == {k: [] for k in found}


def test_board_elements_have_names_and_keys(server: Any, browser: Any) -> None:
    with two_players(browser, server, DESKTOP) as pages:
        mine, _other = wait_turn_known(pages)
        # clickable SVG parts are buttons with a name, reachable by Tab
        nodes = mine.evaluate(
            """() => [...document.querySelectorAll('svg [role=button]')].map((el) =>
                 [el.getAttribute('aria-label') || '', el.getAttribute('tabindex')])"""
        )
        assert len(nodes) == 8
        assert all(label and tab == "0" for label, tab in nodes), nodes
        # a rondel location is named by the councilors standing there
        assert any("—" in label for label, _ in nodes)
        # Enter on a focused rondel space filters the moves to that location
        mine.locator("svg [role=button]").first.focus()
        mine.keyboard.press("Enter")
        mine.wait_for_function(
            "() => document.querySelector('svg [role=button][aria-pressed=true]')", timeout=WAIT
        )
        keys = set(
            mine.evaluate("[...document.querySelectorAll('[data-key]')].map(e => e.dataset.key)")
        )
        for k in (
            "round",
            "turn:seat",
            "me:hand",
            "favor:pile",
            "advisors:b_stack",
            "player:0:cp",
            "player:1:bp",
            "player:0:score",
            "player:1:wood",
            "player:0:gold",
            "player:1:slot:1",
            "player:0:craftsmen_left",
            "hut:forest:0",
            "marker:stone",
            "marker:bread",
        ):
            assert k in keys, k
        assert any(re.fullmatch(r"councilor:[01]:\w+", k) for k in keys)
        assert any(re.fullmatch(r"display:\w+:\w+", k) for k in keys)
        assert any(re.fullmatch(r"nobility:\w+", k) for k in keys)
        assert any(re.fullmatch(r"marker:(gift|donation):\w+", k) for k in keys)
        # every seat token carries its shape as text, not only its colour
        shapes = set(
            mine.evaluate(
                "[...document.querySelectorAll('.seat-token')].map(e => e.textContent.trim()[0])"
            )
        )
        assert shapes <= {"●", "▲", "■", "◆", "♕"} and {"●", "▲"} <= shapes
        # the score bar speaks politely
        live = mine.get_by_test_id("score-live")
        assert live.get_attribute("aria-live") == "polite"


def luminance(rgb: tuple[int, int, int]) -> float:
    def lin(c: int) -> float:
        x = c / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(css: str) -> tuple[int, int, int]:
    m = re.match(r"rgba?\((\d+), (\d+), (\d+)", css)
    assert m, css
    return int(m[1]), int(m[2]), int(m[3])


def test_keyboard_focus_is_visible_with_contrast(
    server: Any, browser: Any, artifacts: Path
) -> None:
    with two_players(browser, server, DESKTOP) as pages:
        mine, _other = wait_turn_known(pages)
        for _ in range(60):
            mine.keyboard.press("Tab")
            if mine.evaluate("!!document.activeElement.closest('#controls')"):
                break
        style = mine.evaluate(
            """() => { const s = getComputedStyle(document.activeElement);
                 return [s.outlineStyle, s.outlineWidth, s.outlineColor,
                         getComputedStyle(document.documentElement).backgroundColor]; }"""
        )
        outline_style, width, color, page_bg = style
        assert outline_style == "solid"
        assert float(width.removesuffix("px")) >= 2
        assert contrast(rgb(color), rgb(page_bg)) >= 3, (color, page_bg)
        screenshot(mine, path=str(artifacts / "focus-visible.png"))


def test_score_bar_marks_the_lower_track_and_announces_changes(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("create-table").wait_for(timeout=WAIT)
        said = page.evaluate(
            own_modules("""async () => {
                 const { renderScoreBar } = await import('/js/scorebar.js');
                 const players = [{seat: 0, cp: 12, bp: 9, score: 9},
                                  {seat: 1, cp: 7, bp: 7, score: 7}];
                 const ts = { id: 'T', mySeat: 0, nameOf: (s) => ['Ann', 'Ben'][s],
                              botLevelOf: () => null,
                              view: { phase: 'turns', turn: { seat: 1 }, players_state: players } };
                 const bar = renderScoreBar(ts);
                 const first = document.getElementById('score-live').textContent;
                 players[0].cp = 15; players[0].bp = 11; players[0].score = 11;
                 const again = renderScoreBar(ts);
                 const row = (b, s) => b.querySelector(`tr[data-seat="${s}"]`);
                 const lower = (b, s) => [...row(b, s).querySelectorAll('td.lower')]
                   .map((td) => td.dataset.key);
                 return {
                   first,
                   after: document.getElementById('score-live').textContent,
                   lower0: lower(bar, 0),
                   lower1: lower(bar, 1),
                   text0: row(again, 0).textContent,
                   now: row(bar, 1).getAttribute('aria-current'),
                   nowMark: row(bar, 1).querySelector('.turn-mark').textContent,
                 };
               }""")
        )
        assert said["first"] == ""  # nothing is said on the first look
        assert said["after"] == "Ann: 15 CP, 11 BP, score 11."  # only the seat that changed
        assert said["lower0"] == ["player:0:bp"]
        assert said["lower1"] == ["player:1:cp", "player:1:bp"]  # a tie: both tracks count
        assert "▼" in said["text0"] and "lower track" in said["text0"]
        assert said["now"] == "true" and said["nowMark"] == "▶"
    finally:
        ctx.close()


def test_solo_table_on_a_phone(server: Any, browser: Any, artifacts: Path) -> None:
    """Against Victoria: her CP are a row of the score bar, in the first screen with the rest."""
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Sola")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("invite-link").wait_for(timeout=WAIT)
        page.goto(server.url("/solo"))
        page.get_by_test_id("solo-start-high-score").click()
        page.get_by_test_id("game").wait_for(timeout=WAIT)
        page.wait_for_function("() => document.querySelector('[data-layout=tabs]')", timeout=WAIT)
        rows = page.locator("[data-testid=score-row]")
        assert rows.count() == 2
        assert page.locator("[data-testid=score-row][data-seat=v]").count() == 1
        assert page.locator("[data-key='victoria:cp']").count() >= 1
        assert assert_on_first_screen(page, "[data-testid=scorebar] td", PHONE) == 6
        assert axe_violations(page) == []
        screenshot(page, path=str(artifacts / "phone-solo-en.png"))
    finally:
        ctx.close()


def test_axe_rules_page(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        found: dict[str, list[str]] = {}
        for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            page.goto(server.url("/rules#advisors"))
            page.get_by_test_id("rules-page").wait_for(timeout=WAIT)
            axe_in_both_schemes(page, found, size_name)
        assert found == {
            f"{size}, {scheme}": [] for size in ("desktop", "phone") for scheme in SCHEMES
        }
    finally:
        ctx.close()


def test_axe_guided_game_with_a_hint_shown(server: Any, browser: Any) -> None:
    """A guided table with its hint panel and the marked target, on a desktop and a phone."""
    from tests.browser.test_guide import READY_JS
    from tests.browser.test_reach import sign_up

    found: dict[str, list[str]] = {}
    for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx = browser.new_context(viewport=size)
        try:
            page = ctx.new_page()
            sign_up(page, server, "Axe")
            page.goto(server.url("/learn"))
            page.wait_for_function(READY_JS, timeout=WAIT)  # the hint, its target marked
            found[f"guided, {size_name}"] = axe_violations(page)
            page.goto(server.url("/"))  # the landing with the offer
            page.get_by_test_id("learn-offer").wait_for(timeout=WAIT)
            found[f"landing offer, {size_name}"] = axe_violations(page)
        finally:
            ctx.close()
    assert found == {k: [] for k in found}
