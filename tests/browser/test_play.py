"""Two people play a whole 2-player game in the browser, by clicking only.

One browser context creates a table, a second joins through the invite link, and they play to the
final scores. Along the way: a reload restores the same view, a second tab of the same seat keeps
in sync over the first 60 moves, a payment picker is used, and no page logs a console error.
Screenshots of the lobby, a mid-game table and the final scores land in test-artifacts/.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.shots import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORT = {"width": 1440, "height": 900}
DECISIONS = ("keep_favor", "event_option", "decline", "choose_resource", "place_councilor")
# Extra actions worth taking once in a while (never the open-ended Chamberlain swaps).
EXTRAS = (
    "harvest",
    "castle_gift",
    "castle_book",
    "cathedral_donation",
    "deliver_stone",
    "deliver_bread",
    "deliver_wood",
    "market_gold",
    "market_books",
    "cash_favor",
    "raise_title",
    "hire_craftsman",
    "hire_advisor",
)
MAX_STEPS = 900
CHOICES = "[data-testid=legal-move], [data-testid=end-turn]"


class ConsoleWatch:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def attach(self, page: Any, name: str) -> None:
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"{name}: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"{name}: page error {e}"))


def version(page: Any) -> int:
    v = page.evaluate("document.body.dataset.version")
    return int(v) if v not in (None, "") else -1


def wait_version_above(page: Any, v: int, timeout: float = 15000) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=v, timeout=timeout)


def wait_version_at_least(page: Any, v: int, timeout: float = 15000) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=v, timeout=timeout
    )


@contextmanager
def host_and_guest(browser: Any) -> Iterator[tuple[Any, Any, ConsoleWatch]]:
    """Two people (a browser context each) with a page each, both watched for console errors;
    the contexts are closed afterwards."""
    watch = ConsoleWatch()
    host_ctx = browser.new_context(viewport=VIEWPORT)
    guest_ctx = browser.new_context(viewport=VIEWPORT)
    try:
        host = host_ctx.new_page()
        guest = guest_ctx.new_page()
        watch.attach(host, "host")
        watch.attach(guest, "guest")
        yield host, guest, watch
    finally:
        host_ctx.close()
        guest_ctx.close()


class Player:
    """Chooses which legal option to click; the page decides what is clickable."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.extras_left = 0
        self.picker_used = False
        self.picker_offered = False

    def options(self) -> list[tuple[str, int, int]]:
        """(kind, index among the clickable choices, number of payments) for each choice."""
        found = self.page.evaluate(
            """() => [...document.querySelectorAll(CHOICES)].map((el, i) =>
                 [el.dataset.kind || "", i, Number(el.dataset.choices || 1)])""".replace(
                "CHOICES", json.dumps(CHOICES)
            )
        )
        return [(k, i, n) for k, i, n in found]

    def pick(self, options: list[tuple[str, int, int]]) -> tuple[str, int, int] | None:
        by_kind: dict[str, list[tuple[str, int, int]]] = {}
        for o in options:
            by_kind.setdefault(o[0], []).append(o)
        for k in DECISIONS:
            if k in by_kind:
                return self.rng.choice(by_kind[k])
        if "play_card" in by_kind:
            self.extras_left = 1
            return self.rng.choice(by_kind["play_card"])
        if not self.picker_used:
            # The first choice that needs a payment picker is taken whatever it is (an advisor's
            # too: once only, so no exchange goes back and forth), so that a game exercises the
            # picker whenever its seed offers one.
            multi = [o for o in options if o[2] > 1]
            if multi:
                self.picker_offered = True
                return multi[0]
        if "card_action" in by_kind and self.rng.random() < 0.5:
            # prefer a choice with a payment picker the first time one shows up
            multi = [o for o in by_kind["card_action"] if o[2] > 1]
            if multi and not self.picker_used:
                return multi[0]
            return self.rng.choice(by_kind["card_action"])
        extras = [o for k in EXTRAS for o in by_kind.get(k, [])]
        if self.extras_left > 0 and extras and self.rng.random() < 0.8:
            self.extras_left -= 1
            multi = [o for o in extras if o[2] > 1]
            if multi and not self.picker_used:
                return multi[0]
            return self.rng.choice(extras)
        if "move" in by_kind:
            return self.rng.choice(by_kind["move"])
        if "end_turn" in by_kind:
            return by_kind["end_turn"][0]
        if "end_visit" in by_kind:
            return by_kind["end_visit"][0]
        rest = [o for o in options if o[0] != "use_advisor"]
        return self.rng.choice(rest or options) if options else None

    def act(self) -> bool:
        """Click one legal choice (and a payment if asked). True if a move was sent."""
        opts = self.options()
        if not opts:
            return False
        choice = self.pick(opts)
        if choice is None:
            return False
        _kind, index, choices = choice
        before = version(self.page)
        self.page.locator(CHOICES).nth(index).click()
        if choices > 1:
            pays = self.page.get_by_test_id("pay-option")
            pays.first.wait_for(timeout=5000)
            n = pays.count()
            assert n == choices, f"the picker shows {n} payments for {choices} moves"
            pays.nth(self.rng.randrange(n)).click()
            self.picker_used = True
        wait_version_above(self.page, before)
        return True


def test_two_players_play_a_whole_game(server: Any, browser: Any, artifacts: Path) -> None:
    rng = random.Random(7)
    with host_and_guest(browser) as (host, guest, watch):
        # Landing: a name, then a table for two.
        host.goto(server.url("/"))
        host.get_by_test_id("name-input").fill("Alice")
        host.get_by_test_id("create-table").click()
        invite = host.get_by_test_id("invite-link").input_value()
        assert "/t/" in invite and "invite=" in invite
        assert host.get_by_test_id("start-game").is_disabled()

        # The guest opens the invite link and takes the free seat; the host sees the name live,
        # from its socket's lobby frame, without asking the server again.
        host_reads: list[str] = []
        host.on(
            "request",
            lambda r: (
                host_reads.append(r.url) if r.method == "GET" and "/api/tables/" in r.url else None
            ),
        )
        guest.goto(invite)
        guest.get_by_test_id("name-input").fill("Bob")
        guest.get_by_test_id("join-table").click()
        host.get_by_text("Bob").first.wait_for(timeout=10000)
        assert host_reads == []
        start = host.get_by_test_id("start-game")
        start.wait_for(state="visible")
        host.wait_for_function(
            "() => !document.querySelector('[data-testid=start-game]').disabled", timeout=10000
        )
        screenshot(host, path=str(artifacts / "lobby.png"))
        start.click()

        host.get_by_test_id("game").wait_for(timeout=15000)
        guest.get_by_test_id("game").wait_for(timeout=15000)
        table_url = host.url

        # A second tab on the host's seat.
        twin = host.context.new_page()
        watch.attach(twin, "host-tab-2")
        twin.goto(table_url)
        twin.get_by_test_id("game").wait_for(timeout=15000)
        # The twin opened as a second tab of the host's window: the host's tab comes back to the
        # front, as a person clicks back to it (a tab behind another draws one frame a second,
        # and every click waits for a drawn frame).
        host.bring_to_front()

        players = [Player(host, rng), Player(guest, rng)]
        steps = 0
        idle = 0
        reloaded = False
        shot_mid = False
        while steps < MAX_STEPS and idle < 300:
            if (
                host.get_by_test_id("final-scores").count()
                and guest.get_by_test_id("final-scores").count()
            ):
                break
            moved = False
            for p in players:
                if p.act():
                    moved = True
                    steps += 1
                    break
            if not moved:
                # nobody can act on screen yet: let the socket deliver the other side's move
                host.wait_for_timeout(100)
                idle += 1
                continue
            idle = 0
            if steps % 25 == 0:
                print(f"step {steps}: version {version(host)}", flush=True)
            if steps == 40 and not reloaded:
                # A reload mid-game restores the same view.
                v = version(guest)
                before = guest.get_by_test_id("score-track").inner_text()
                boards = guest.locator("[data-testid=player-board]").all_inner_texts()
                hand = guest.get_by_test_id("hand").inner_text()
                guest.reload()
                guest.get_by_test_id("game").wait_for(timeout=15000)
                wait_version_at_least(guest, v)
                assert version(guest) == v
                assert guest.get_by_test_id("score-track").inner_text() == before
                assert guest.locator("[data-testid=player-board]").all_inner_texts() == boards
                assert guest.get_by_test_id("hand").inner_text() == hand
                reloaded = True
            if steps >= 60 and not shot_mid:
                # The twin tab follows the host's seat without being touched.
                v = version(host)
                wait_version_at_least(twin, v)
                assert (
                    twin.get_by_test_id("score-track").inner_text()
                    == host.get_by_test_id("score-track").inner_text()
                )
                screenshot(host, path=str(artifacts / "mid-game.png"))
                shot_mid = True
                # Its part is done: kept open, a third page would draw every move of the rest
                # of the game, a third more of the browser's work to show again what these 60
                # moves showed.
                twin.close()

        final = host.get_by_test_id("final-scores")
        final.wait_for(timeout=15000)
        guest.get_by_test_id("final-scores").wait_for(timeout=15000)
        assert reloaded and shot_mid
        # The seed is the server's, and some games never offer a choice of payments at all
        # (about 3 in 100 random two-player games, advisors included, replayed in-process): then
        # the picker is not this game's to check, and the run says so.
        if any(p.picker_offered for p in players):
            assert any(p.picker_used for p in players), "a payment picker was offered, not opened"
        else:
            warnings.warn(
                "this game offered no choice of payments: the picker went unchecked", stacklevel=1
            )
        text = final.inner_text()
        assert "Alice" in text and "Bob" in text
        final.scroll_into_view_if_needed()
        screenshot(host, path=str(artifacts / "final-scores.png"), full_page=True)

        # Rematch: the host lands at a new table with the same options, its own invite link,
        # and the others are offered their seats there.
        finished_url = host.url
        host.get_by_test_id("rematch").click()
        host.wait_for_url(lambda url: url != finished_url and "/t/" in url, timeout=10000)
        new_link = host.get_by_test_id("invite-link")
        new_link.wait_for(timeout=10000)
        assert new_link.input_value() != invite and "invite=" in new_link.input_value()
        guest.get_by_test_id("rematch-offered").wait_for(timeout=15000)

        assert watch.errors == [], "console errors:\n" + "\n".join(watch.errors)


def test_server_errors_are_shown_in_words(server: Any, browser: Any) -> None:
    """A wrong invite code shows an error message rather than failing silently."""
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        page.goto(server.url("/"))
        page.get_by_test_id("name-input").fill("Carol")
        page.get_by_test_id("create-table").click()
        link = page.get_by_test_id("invite-link").input_value()
        other = browser.new_context(viewport=VIEWPORT)
        try:
            p2 = other.new_page()
            p2.goto(link.split("?")[0] + "?invite=wrong-code")
            # signed out: "who are you?" first, and it says at once, before any name, that this
            # link opens no table (no seat is offered)
            door = p2.locator("[data-testid=whoami-table][data-door=missing]")
            door.wait_for(timeout=10000)
            assert door.inner_text().strip()
            assert p2.get_by_test_id("join-table").count() == 0
        finally:
            other.close()
    finally:
        ctx.close()


def test_messages_come_from_the_catalogue(server: Any, browser: Any) -> None:
    """Switching the language changes the landing page's words (cs and de catalogues load)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.goto(server.url("/"))
        seen = {page.get_by_test_id("create-table").inner_text()}
        for code in ("cs", "de"):
            page.select_option("[data-testid=lang-select]", code)
            page.wait_for_function(
                "c => document.documentElement.lang === c"
                " && document.querySelector('[data-testid=lang-select]')?.value === c",
                arg=code,
            )
            text = page.get_by_test_id("create-table").inner_text()
            assert text not in seen, f"{code}: the create button still reads {text!r}"
            seen.add(text)
        assert errors == []
    finally:
        ctx.close()


def _started_game(server: Any, browser: Any) -> tuple[Any, Any, Any, Any]:
    host_ctx = browser.new_context(viewport=VIEWPORT)
    guest_ctx = browser.new_context(viewport=VIEWPORT)
    host = host_ctx.new_page()
    guest = guest_ctx.new_page()
    host.goto(server.url("/"))
    host.get_by_test_id("name-input").fill("Erin")
    host.get_by_test_id("start-player").select_option("0")  # the host moves first
    host.get_by_test_id("create-table").click()
    invite = host.get_by_test_id("invite-link").input_value()
    guest.goto(invite)
    guest.get_by_test_id("name-input").fill("Finn")
    guest.get_by_test_id("join-table").click()
    host.wait_for_function(
        "() => !document.querySelector('[data-testid=start-game]')?.disabled", timeout=10000
    )
    host.get_by_test_id("start-game").click()
    host.get_by_test_id("game").wait_for(timeout=15000)
    guest.get_by_test_id("game").wait_for(timeout=15000)
    return host_ctx, guest_ctx, host, guest


def test_a_network_drop_resyncs_by_itself(server: Any, browser: Any) -> None:
    """The guest goes offline while moves happen; back online, it shows the same table."""
    host_ctx, guest_ctx, host, guest = _started_game(server, browser)
    try:
        rng = random.Random(11)
        players = [Player(host, rng), Player(guest, rng)]
        guest_ctx.set_offline(True)
        moved = 0
        for _ in range(200):
            if moved >= 3:
                break
            # only the online side moves; if it is the guest's turn, nothing can happen offline
            if players[0].act():
                moved += 1
            elif players[1].options():
                break
            else:
                host.wait_for_timeout(100)
        assert moved == 3, "the host could not move while the guest was offline"
        target = version(host)
        assert version(guest) < target, "the offline guest should not have seen the moves yet"
        guest_ctx.set_offline(False)
        wait_version_at_least(guest, target, timeout=30000)
        assert version(guest) == target
        assert (
            guest.get_by_test_id("score-track").inner_text()
            == host.get_by_test_id("score-track").inner_text()
        )
        # and the guest can play on: its clicks reach the server
        for _ in range(100):
            if players[1].act() or players[0].act():
                break
            host.wait_for_timeout(100)
        wait_version_at_least(host, target + 1)
    finally:
        host_ctx.close()
        guest_ctx.close()
