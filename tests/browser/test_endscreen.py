"""The end of a game in Chromium: after a 3-player game every score shown (score bar, score track,
player boards, final table, My games) is the final one from the engine's outcome, with what the
leftover goods added; the solo end screen of a campaign game agrees with its outcome and offers
the campaign's next game; and no page scrolls sideways on a 390 px phone.

Games are opened and started over HTTP by the people's own tokens, played to their end by the
engine in the server's process (``finish_in_server``), then looked at in the browser.
Screenshots go to test-artifacts/ (and EMARA_SHOTS, when set)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.devtools.stack import ServerProcess
from tests.browser.conftest import finish_in_server
from tests.browser.shots import screenshot

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
WAIT = 20000
SIDEWAYS_JS = "document.documentElement.scrollWidth - window.innerWidth"


def api(server: ServerProcess, token: str, method: str, path: str, **kw: Any) -> Any:
    r = server.http().request(method, path, headers={"Authorization": f"Bearer {token}"}, **kw)
    assert r.status_code < 300, r.text
    return r.json() if r.content else None


def sign_up(page: Any, server: ServerProcess, name: str) -> str:
    """The page makes a profile (its cookie); returns the profile's token for HTTP calls."""
    page.goto(server.url("/"))
    page.get_by_test_id("create-table").wait_for(timeout=WAIT)
    body = page.evaluate(
        """async (name) => { const r = await fetch('/api/profiles', { method: 'POST',
             headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
           localStorage.setItem('emara.signed_in', '1'); return r.json(); }""",
        name,
    )
    return str(body["token"])


def profile(server: ServerProcess, name: str) -> str:
    r = httpx.post(server.url("/api/profiles"), json={"name": name}, timeout=30)
    assert r.status_code < 300, r.text
    return str(r.json()["token"])


def open_table(server: ServerProcess, tokens: list[str]) -> str:
    t = api(
        server,
        tokens[0],
        "POST",
        "/api/tables",
        json={"seats": len(tokens), "options": {"start_player": 0}},
    )
    for token in tokens[1:]:
        body = {"invite_code": t["invite_code"]}
        api(server, token, "POST", f"/api/tables/{t['id']}/join", json=body)
    api(server, tokens[0], "POST", f"/api/tables/{t['id']}/start")
    return str(t["id"])


def play_to_end(server: ServerProcess, table_id: str, tokens: list[str], seed: int) -> Any:
    """The started game played to its end in the server's process (``finish_in_server``); the
    first token's game."""
    finish_in_server(server, table_id, seed)
    return api(server, tokens[0], "GET", f"/api/tables/{table_id}/game")


def shoot(page: Any, artifacts: Path, name: str) -> None:
    screenshot(page, path=str(artifacts / f"{name}.png"), full_page=True)
    extra = os.environ.get("EMARA_SHOTS")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        screenshot(page, path=str(Path(extra) / f"{name}.png"), full_page=True)


def sideways(page: Any) -> int:
    """How many CSS pixels the page is wider than the window (0 when it does not scroll)."""
    return int(page.evaluate(SIDEWAYS_JS))


def numbers(page: Any, testid: str) -> list[int]:
    texts = page.get_by_test_id(testid).all_inner_texts()
    return [int(re.findall(r"\d+", x)[0]) for x in texts]


def test_every_score_after_a_three_player_game_is_the_final_one_and_fits_a_phone(
    server: Any, browser: Any, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        dora = sign_up(page, server, "Dora")
        others = [profile(server, "Ede"), profile(server, "Fin")]
        tokens = [dora, *others]
        # The deal is the server's: a game whose leftover goods moved a track (most do) is looked
        # for among a few, each played out in the server's process.
        for seed in range(8, 13):
            table_id = open_table(server, tokens)
            final = play_to_end(server, table_id, tokens, seed=seed)
            outcome = final["view"]["outcome"]
            by_seat = {p["seat"]: p for p in outcome["players"]}
            before = {p["seat"]: (p["cp"], p["bp"]) for p in final["view"]["players_state"]}
            moved = [s for s, p in by_seat.items() if p["leftover"]["points"]]
            if any(before[s] != (by_seat[s]["cp"], by_seat[s]["bp"]) for s in moved):
                break
        assert moved and any(before[s] != (by_seat[s]["cp"], by_seat[s]["bp"]) for s in moved)
        # a second table still in play, for the phone check during a game
        playing_id = open_table(server, [dora, *others])

        page.goto(server.url(f"/t/{table_id}"))
        page.get_by_test_id("final-scores").wait_for(timeout=WAIT)
        page.get_by_test_id("score-row").first.wait_for(timeout=WAIT)
        seats = [
            int(x)
            for x in page.locator("[data-testid=score-row]").evaluate_all(
                "rows => rows.map(r => r.dataset.seat)"
            )
        ]
        assert seats == [0, 1, 2]
        want_cp = [by_seat[s]["cp"] for s in seats]
        want_bp = [by_seat[s]["bp"] for s in seats]
        want_score = [by_seat[s]["score"] for s in seats]
        # the score bar, the player boards and the final table: the final tracks
        assert numbers(page, "score-cp") == want_cp
        assert numbers(page, "score-bp") == want_bp
        assert numbers(page, "score-total") == want_score
        assert numbers(page, "player-score") == want_score
        rows = page.locator("[data-testid=final-row]")
        final_seats = [int(x) for x in rows.evaluate_all("rows => rows.map(r => r.dataset.seat)")]
        ranked = sorted(by_seat.values(), key=lambda p: (p["rank"], p["seat"]))
        assert final_seats == [p["seat"] for p in ranked]
        assert numbers(page, "final-score") == [p["score"] for p in ranked]
        assert numbers(page, "final-cp") == [p["cp"] for p in ranked]
        # the score track's legend gives the same numbers
        legend = page.get_by_test_id("score-track").inner_text()
        for s in seats:
            assert f"= {by_seat[s]['score']}" in legend
        # how the leftover goods moved the tracks, per player who had any
        notes = page.get_by_test_id("final-leftover").all_inner_texts()
        assert len(notes) == len(moved)
        first = by_seat[ranked[0]["seat"]]
        if first["leftover"]["points"]:
            lo = first["leftover"]
            text = notes[0]
            assert text.startswith("leftover goods: ")
            if lo["to_cp"]:
                assert f"+{lo['to_cp']} CP" in text
            if lo["to_bp"]:
                assert f"+{lo['to_bp']} BP" in text
        assert len(page.get_by_test_id("leftover-moved").all()) == len(moved)
        shoot(page, artifacts, "endscreen-3p-desktop")

        # on a phone: the end screen and every other page fit the width
        page.set_viewport_size(PHONE)
        page.get_by_test_id("final-scores").wait_for(timeout=WAIT)
        page.wait_for_function(f"{SIDEWAYS_JS} <= 0", timeout=WAIT)
        shoot(page, artifacts, "endscreen-3p-phone")
        final_box = page.get_by_test_id("final-scores").bounding_box()
        assert final_box is not None and final_box["x"] + final_box["width"] <= PHONE["width"]
        for cell in page.get_by_test_id("final-score").all():
            box = cell.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"]
        pages = {
            "home": ("/", "create-table"),
            "table-playing": (f"/t/{playing_id}", "scorebar"),
            "table-finished": (f"/t/{table_id}", "final-scores"),
            "solo": ("/solo", "solo-start-campaign"),
            "my-games": ("/games", "my-games"),
            "profile": ("/profile", "email-section"),
            "records": ("/records", "high-scores"),
        }
        wide = {}
        for name, (path, ready) in pages.items():
            page.goto(server.url(path))
            page.get_by_test_id(ready).first.wait_for(timeout=WAIT)
            if sideways(page) > 0:
                wide[name] = sideways(page)
                shoot(page, artifacts, f"endscreen-wide-{name}")
        assert wide == {}
        # My games: the finished game with my final place and score
        page.goto(server.url("/games"))
        result = page.locator(f"[data-testid=my-game][data-table='{table_id}']").get_by_test_id(
            "my-game-result"
        )
        result.wait_for(timeout=WAIT)
        assert f"Place {by_seat[0]['rank']} of 3" in result.inner_text()
        assert str(by_seat[0]["score"]) in result.inner_text()
    finally:
        ctx.close()


def test_the_solo_end_screen_of_a_campaign_game_agrees_with_its_outcome(
    server: Any, browser: Any, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        token = sign_up(page, server, "Dora")
        started = api(server, token, "POST", "/api/solo", json={"mode": "campaign"})
        assert started["building_start"] == 40
        table_id = started["table_id"]
        final = play_to_end(server, table_id, [token], seed=3)
        outcome = final["view"]["outcome"]
        me, victoria, won = outcome["players"][0], outcome["victoria"], outcome["won"]
        next_start = 35 if won else 42

        page.goto(server.url(f"/t/{table_id}"))
        page.get_by_test_id("final-scores").wait_for(timeout=WAIT)
        headline = page.get_by_test_id("final-headline").inner_text()
        assert headline == ("You beat Victoria!" if won else "Victoria wins this time.")
        rows = page.locator("[data-testid=final-row]")
        order = rows.evaluate_all("rows => rows.map(r => r.dataset.seat)")
        assert order == (["0", "v"] if won else ["v", "0"])
        first = rows.first.inner_text()
        assert first.startswith("♛ 1") and (("Dora" in first) == won)
        assert numbers(page, "final-score") == (
            [me["score"], victoria["score"]] if won else [victoria["score"], me["score"]]
        )
        # the next step: the campaign's next game at its start value, no rematch
        button = page.get_by_test_id("next-campaign")
        button.wait_for(timeout=WAIT)
        assert button.inner_text().strip() == f"▶ Next campaign game ({next_start} BP)"
        assert page.get_by_test_id("rematch").count() == 0
        best = page.get_by_test_id("solo-best").inner_text()
        assert best == f"Best score at 40 BP: {me['score']}"
        shoot(page, artifacts, "endscreen-solo-campaign-desktop")
        page.set_viewport_size(PHONE)
        page.wait_for_function(f"{SIDEWAYS_JS} <= 0", timeout=WAIT)
        shoot(page, artifacts, "endscreen-solo-campaign-phone")

        # the best-score table keeps the campaign score at 40
        page.goto(server.url("/records"))
        row = page.get_by_test_id("high-scores").locator("tr", has_text="40")
        row.first.wait_for(timeout=WAIT)
        assert str(me["score"]) in row.first.inner_text()
        assert sideways(page) <= 0

        # the button opens the next campaign game at that start value
        page.goto(server.url(f"/t/{table_id}"))
        page.get_by_test_id("next-campaign").click()
        page.wait_for_url(lambda url: "/t/" in url and table_id not in url, timeout=WAIT)
        sheet = api(server, token, "GET", "/api/profiles/me/solo")
        (open_game,) = sheet["open"]
        assert (open_game["mode"], open_game["building_start"]) == ("campaign", next_start)
        assert page.url.endswith(f"/t/{open_game['table_id']}")
    finally:
        ctx.close()
