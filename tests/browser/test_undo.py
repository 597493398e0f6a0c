"""The Undo button in the browser: on your turn it says what it takes back, takes it back (the view
is then exactly the earlier one), offers the points further back, and Ctrl+Z does the same; the
log reads "Ann took back 1 move", and the engine's refusals read in the catalogue's words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.modules import own_modules
from tests.browser.shots import screenshot
from tests.browser.test_play import VIEWPORT, ConsoleWatch, wait_version_at_least
from tests.browser.test_since import Api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 30000  # ms
UNDO = "[data-testid=undo]"
PLAY_CARD = "[data-testid=legal-move][data-kind=play_card]"
MOVE = "[data-testid=legal-move][data-kind=move]"


SIGNED_IN = "localStorage.setItem('emara.signed_in', '1')"


def view_of(ctx: Any, server: Any, tid: str) -> Any:
    res = ctx.request.get(server.url(f"/api/tables/{tid}/game"))
    assert res.ok, res.text()
    g = res.json()
    return g["version"], g["view"], g["legal_moves"]


def version(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.version)"))


def test_the_undo_button_and_ctrl_z_take_back_moves(
    server: Any, browser: Any, artifacts: Path
) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.add_init_script("localStorage.setItem('emara.lang', 'en')")
    try:
        api = Api(server)
        r = ctx.request.post(server.url("/api/profiles"), data={"name": "Ann"})
        ctx.add_init_script(SIGNED_IN)  # the cookie came by API: this browser knows it signed in
        assert r.ok, r.text()
        ann, bo = r.json()["token"], api.profile("Bo")
        t = api.call("POST", "/api/tables", ann, json={"seats": 2, "options": {"start_player": 0}})
        tid = t["id"]
        api.call("POST", f"/api/tables/{tid}/join", bo, json={"invite_code": t["invite_code"]})
        api.call("POST", f"/api/tables/{tid}/start", ann)
        page = ctx.new_page()
        watch.attach(page, "ann")
        page.goto(server.url(f"/t/{tid}"))
        page.wait_for_selector(PLAY_CARD, timeout=WAIT)
        v0, view0, legal0 = view_of(ctx, server, tid)
        assert version(page) == v0
        assert page.locator(UNDO).count() == 0  # nothing of this turn to take back yet
        hand0 = page.inner_text("[data-testid=hand]")

        # the button: one card played, "Take back 1 move", and the earlier view is back
        page.locator(PLAY_CARD).first.click()
        page.wait_for_selector(UNDO, timeout=WAIT)
        assert page.inner_text(UNDO).strip().endswith("Take back 1 move")
        # live play: the newest log lines and the score track light up as the update arrives
        assert page.locator("#log-list li.new.since-live").count() > 0
        assert page.locator("[data-testid=score-track].since-live").count() == 1
        page.click(UNDO)
        wait_version_at_least(page, v0 + 2, WAIT)
        page.wait_for_selector(UNDO, state="detached", timeout=WAIT)
        assert view_of(ctx, server, tid) == (v0 + 2, view0, legal0)
        assert page.inner_text("[data-testid=hand]") == hand0
        log = page.locator("#log-list")
        assert log.get_by_text("Ann took back 1 move").count() == 1

        # two points: the nearest on the button, the earlier one in the list
        page.locator(PLAY_CARD).first.click()
        page.wait_for_selector(MOVE, timeout=WAIT)
        page.locator(MOVE).first.click()
        wait_version_at_least(page, v0 + 4, WAIT)
        page.wait_for_selector(UNDO, timeout=WAIT)
        assert page.inner_text(UNDO).strip().endswith("Take back 1 move")
        page.click("[data-testid=undo-more]")
        point = page.locator("[data-testid=undo-point]")
        assert point.count() == 1 and point.inner_text().strip() == "Take back 2 moves"
        screenshot(page, path=str(artifacts / "undo-menu-en.png"))
        point.click()
        wait_version_at_least(page, v0 + 5, WAIT)
        assert view_of(ctx, server, tid) == (v0 + 5, view0, legal0)
        assert log.get_by_text("Ann took back 2 moves").count() == 1

        # Ctrl+Z takes back the nearest point
        page.locator(PLAY_CARD).first.click()
        page.wait_for_selector(UNDO, timeout=WAIT)
        page.locator("body").press("Control+z")
        wait_version_at_least(page, v0 + 7, WAIT)
        assert view_of(ctx, server, tid) == (v0 + 7, view0, legal0)
        assert log.get_by_text("Ann took back 1 move").count() == 2
        # with nothing to take back, Ctrl+Z sends nothing: the next move's answer (the socket
        # answers in order) comes with no refusal before it
        page.locator("body").press("Control+z")
        page.locator(PLAY_CARD).first.click()
        wait_version_at_least(page, v0 + 8, WAIT)
        assert view_of(ctx, server, tid)[0] == v0 + 8
        assert page.locator("[data-testid=error]").count() == 0
        assert watch.errors == []
    finally:
        ctx.close()


def test_the_refusals_of_an_undo_read_in_words(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.wait_for_function("document.documentElement.lang === 'en'", timeout=WAIT)
        texts = page.evaluate(
            own_modules("""async () => {
                 const { undoRefusal } = await import('/js/undo.js');
                 const { ApiError } = await import('/js/api.js');
                 const { setLang } = await import('/js/i18n.js');
                 const read = (engine) => {
                   const e = { code: "illegal_move", frame: { type: "error", code: "illegal_move",
                               engine_code: engine } };
                   return new ApiError(409, undoRefusal(e) || e.code, "", e.frame).text;
                 };
                 const out = {};
                 for (const lang of ["en", "cs", "de"]) {
                   await setLang(lang);
                   out[lang] = ["undo_not_allowed", "undo_across_secret", "no_such"].map(read);
                 }
                 await setLang("en");
                 return out;
               }""")
        )
        assert texts["en"][0] == "Taking moves back is switched off at this table."
        assert texts["cs"][0] == "Vracení tahů je u tohoto stolu vypnuté."
        assert texts["de"][1].startswith("Seitdem wurde etwas gezogen")
        # any other engine code stays the generic refusal of a move
        assert (
            texts["en"][2] == "This move is not allowed right now."
            or "not allowed" in texts["en"][2]
        )
    finally:
        ctx.close()
