"""The game log's first and last words, in the browser: the banner shows the game's very first
turn (its `turn_started` happened as the game began, in no log entry), the log says who began,
and "The game is over" says who won and the final scores, ties as the rules decide them, in
en, de and cs. Screenshots: test-artifacts/log-end-*.png (1366×900 and 390×844)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.browser.modules import own_modules
from tests.browser.shots import screenshot
from tests.browser.test_log_banner import new_table
from tests.browser.test_play import ConsoleWatch, wait_version_at_least
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, finished_game, people, sign_up
from tests.browser.test_since import Api

pytestmark = [pytest.mark.browser]


@pytest.fixture
def page(server: Any, browser: Any) -> Any:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        p = ctx.new_page()
        p.goto(server.url("/"))
        p.get_by_test_id("create-table").wait_for(timeout=WAIT)
        yield p
    finally:
        ctx.close()


FIRST_MOVES = [
    {"version": 1, "seat": 0, "events": [
        {"type": "card_played", "seat": 0, "card": "gold", "slot": 2},
    ]},
    {"version": 2, "seat": 0, "events": [
        {"type": "councilor_moved", "seat": 0, "councilor": "town", "from": "castle",
         "to": "cathedral", "steps": 2},
        {"type": "visit_opened", "seat": 0, "location": "cathedral", "via": "move"},
    ]},
]  # fmt: skip


def test_the_first_turn_of_the_game_is_a_turn(page: Any) -> None:
    turns = page.evaluate(
        own_modules("""async (log) => {
             const { lastTurns } = await import('/js/log.js');
             const more = log.concat([{ version: 3, seat: 0, events: [
               { type: 'turn_ended', seat: 0 }, { type: 'turn_started', seat: 1, number: 1 }] },
               { version: 4, seat: 1, events: [
               { type: 'card_played', seat: 1, card: 'move1', slot: 1 }] }]);
             return [lastTurns(log), lastTurns(more)];
           }"""),
        FIRST_MOVES,
    )
    first, later = turns
    assert [t["seat"] for t in first] == [0]
    assert [e["type"] for e in first[0]["events"]] == [
        "card_played",
        "councilor_moved",
        "visit_opened",
    ]
    assert first[0]["version"] == 2
    # once the second player has begun: both turns, the newest first, the first one whole
    assert [t["seat"] for t in later] == [1, 0]
    assert later[1]["events"][0]["type"] == "card_played"


def _p(seat: int, cp: int, bp: int, rank: int, tiebreak: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "cp": cp, "bp": bp, "score": min(cp, bp), "rank": rank,
            "tiebreak": tiebreak}  # fmt: skip


OUTCOMES = {
    "winner": {"players": [_p(0, 40, 31, 2), _p(1, 38, 44, 1)], "victoria": None, "won": None},
    "tiebreak": {
        "players": [_p(0, 40, 38, 1, "higher_track"), _p(1, 38, 39, 2, "higher_track")],
        "victoria": None,
        "won": None,
    },
    "shared": {
        "players": [_p(0, 38, 40, 1, "shared"), _p(1, 40, 38, 1, "shared"), _p(2, 20, 50, 3)],
        "victoria": None,
        "won": None,
    },
    "solo_won": {"players": [_p(0, 59, 62, 1)], "victoria": {"cp": 50, "score": 50, "rank": 2},
                 "won": True},
    "solo_tie": {"players": [_p(0, 50, 62, 2)], "victoria": {"cp": 50, "score": 50, "rank": 1},
                 "won": False},
}  # fmt: skip


def over_texts(page: Any, lang: str) -> dict[str, str]:
    texts: dict[str, str] = page.evaluate(
        own_modules("""async ([lang, outcomes]) => {
             const i18n = await import('/js/i18n.js');
             await i18n.setLang(lang);
             const { gameOverText } = await import('/js/logend.js');
             const name = (s) => ['Ann', 'Bo', 'Cy'][s];
             const out = {};
             for (const [k, o] of Object.entries(outcomes)) out[k] = gameOverText(o, name);
             out.none = gameOverText(undefined, name);
             await i18n.setLang('en');
             return out;
           }"""),
        [lang, OUTCOMES],
    )
    return texts


def test_the_game_over_line_says_who_won_and_the_final_scores(page: Any) -> None:
    en = over_texts(page, "en")
    assert en["winner"] == (
        "— The game is over — Bo wins with a score of 38. "
        "Final scores: Bo 38 (38 CP, 44 BP); Ann 31 (40 CP, 31 BP)."
    )
    assert en["tiebreak"].startswith(
        "— The game is over — Ann wins with a score of 38, ahead on the tie-break "
        "(higher other track). Final scores: Ann 38"
    )
    assert "Ann and Bo share first place with a score of 38." in en["shared"]
    assert en["shared"].endswith(
        "Ann 38 (38 CP, 40 BP); Bo 38 (40 CP, 38 BP); Cy 20 (20 CP, 50 BP)."
    )
    assert "Ann beats Victoria, 59 to 50." in en["solo_won"]
    assert en["solo_won"].endswith("Ann 59 (59 CP, 62 BP); Victoria 50 (50 CP).")
    assert "A tie at 50: Victoria keeps first place and wins." in en["solo_tie"]
    assert en["solo_tie"].endswith("Victoria 50 (50 CP); Ann 50 (50 CP, 62 BP).")
    assert en["none"] == "— The game is over —"
    de = over_texts(page, "de")
    assert de["winner"].startswith("— Das Spiel ist vorbei — Bo gewinnt mit einer Wertung von 38.")
    assert "Ann und Bo teilen sich den ersten Platz" in de["shared"]
    assert "(40 BüP, 31 BP)" in de["winner"]
    cs = over_texts(page, "cs")
    assert cs["winner"].startswith("— Konec hry — Bo vítězí se skóre 38.")
    assert "Ann a\xa0Bo se dělí o první místo" in cs["shared"]  # a non-breaking space
    assert "Viktoria 50 (50 OB)" in cs["solo_won"]
    for texts in (en, de, cs):
        assert not any("{" in text for text in texts.values()), texts


def test_the_banner_shows_the_first_turn_and_the_log_who_began(server: Any, browser: Any) -> None:
    watch = ConsoleWatch()
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        api = Api(server)
        tid, tokens = new_table(server, ctx, api, "Bo")
        rng = random.Random(3)
        now = api.play(tid, tokens, 0, rng)  # Ann's first move: the card she plays
        page = ctx.new_page()
        watch.attach(page, "ann")
        page.goto(server.url(f"/t/{tid}"))
        wait_version_at_least(page, now, WAIT)
        began = page.get_by_test_id("log-began")
        assert began.inner_text().strip() == "● — Ann begins the game —"
        assert page.locator("#log-list li").first.get_attribute("data-testid") == "log-began"
        line = page.locator("[data-testid=last-turn][data-seat='0']")
        assert "Ann plays" in line.inner_text() and "on slot" in line.inner_text()
        assert watch.errors == []
    finally:
        ctx.close()


def shoot_log(page: Any, path: Path) -> None:
    """The page with the log's end in view (the table draws its panels again as frames arrive:
    the whole page, not one element's handle)."""
    screenshot(page, path=str(path), full_page=True)


def test_the_log_of_a_finished_game_ends_with_the_result(
    server: Any, browser: Any, artifacts: Path
) -> None:
    with people(browser, DESKTOP) as (page,):
        page.add_init_script("localStorage.setItem('emara.lang', 'en')")
        ann = sign_up(page, server, "Ann")
        with people(browser, DESKTOP) as (other,):
            bo = sign_up(other, server, "Bo")
        tid = finished_game(server, [ann["token"], bo["token"]])
        g = page.request.get(
            server.url(f"/api/tables/{tid}/game"),
            headers={"Authorization": f"Bearer {ann['token']}"},
        ).json()
        outcome = g["log"][-1]["events"][-1]["outcome"]
        page.goto(server.url(f"/t/{tid}"))
        over = page.get_by_test_id("log-over")
        over.wait_for(timeout=WAIT)
        text = over.inner_text()
        names = {0: "Ann", 1: "Bo"}
        first = [p for p in outcome["players"] if p["rank"] == 1]
        assert "— The game is over —" in text
        if len(first) == 1:
            assert f"{names[first[0]['seat']]} wins with a score of {first[0]['score']}" in text
        for p in outcome["players"]:
            assert f"{names[p['seat']]} {p['score']} ({p['cp']} CP, {p['bp']} BP)" in text
        assert "Show older moves" in page.get_by_test_id("log-older").inner_text()
        shoot_log(page, artifacts / "log-end-desktop.png")
        for lang in ("de", "cs"):
            page.get_by_test_id("lang-select").select_option(lang)
            page.locator(f"html[lang={lang}]").wait_for(state="attached", timeout=WAIT)
            assert "{" not in page.get_by_test_id("log-over").inner_text()
            shoot_log(page, artifacts / f"log-end-desktop-{lang}.png")
        page.get_by_test_id("lang-select").select_option("en")
        page.set_viewport_size(PHONE)
        page.get_by_test_id("tab-log").click()
        page.get_by_test_id("log-over").wait_for(timeout=WAIT)
        screenshot(page, path=str(artifacts / "log-end-phone.png"))
