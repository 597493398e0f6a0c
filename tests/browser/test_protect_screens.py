"""Every new screen and dialog of protecting oneself, in each language (en, cs, de) at 1366×900
and 390×844: the "⋯" of a seat (the host's), the report dialogs (a message, a name), the block,
remove and hand-over questions, the chat with its "⚑", the page of a person removed from a table
and the profile's list of people blocked. Each fits its viewport (no sideways overflow, the
dialogs and menus inside the screen), and is saved to
test-artifacts/protect/ (a person looks at them: docs in the report of the change)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from app.devtools.stack import ServerProcess
from tests.browser.shots import screenshot
from tests.browser.test_reach import DESKTOP, PHONE, WAIT, api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGS = ("en", "cs", "de")
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
# Long names in the languages' own letters: the layouts must wrap them, never overflow.
NAMES = {"host": "Ann", "guest": "Bartholomäus Weißenberger", "third": "Kristýna Nováková"}

FITS = """(sel) => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  // what is shown: laid out, and not inside a closed disclosure (Chromium lays its content out)
  const hidden = 'details:not([open]) > :not(summary)';
  const shown = (e) => e.getClientRects().length && !e.closest(hidden);
  const els = [...document.querySelectorAll(sel)].filter(shown);
  const bad = [];
  for (const e of els) {
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1) bad.push(`${sel} spans ${r.left}..${r.right} of ${vw}`);
    const tall = r.top < -1 || r.bottom > vh + 1;
    if (e.tagName === 'DIALOG' && tall) bad.push(`${sel} is taller than the screen`);
    if (e.scrollWidth > e.clientWidth + 1) bad.push(`${sel} scrolls sideways`);
  }
  if (document.documentElement.scrollWidth > vw + 1) bad.push('the page scrolls sideways');
  return bad;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[ServerProcess]:
    from app.db.migrate import upgrade

    tmp = tmp_path_factory.mktemp("protect-screens")
    db_url = f"sqlite:///{tmp / 'emara.db'}"
    upgrade(db_url)
    env = {"EMARA_RATE_BLOCK": "1000/hour", "EMARA_RATE_HOST_ACTS": "1000/hour"}
    with ServerProcess(
        db_url, tmp / "server.log", extra_args=["--log-level", "warning"], env=env
    ) as srv:
        yield srv


@pytest.fixture
def shots(artifacts: Path) -> Path:
    folder = artifacts / "protect"
    folder.mkdir(exist_ok=True)
    return folder


@contextlib.contextmanager
def page_in(browser: Any, lang: str, viewport: dict[str, int]) -> Iterator[Any]:
    ctx = browser.new_context(viewport=viewport)
    ctx.add_init_script(f"localStorage.setItem('emara.lang', '{lang}')")
    try:
        yield ctx.new_page()
    finally:
        ctx.close()


def write_chat(
    server: ServerProcess, table_id: str, who: dict[str, Any], seat: int, words: str
) -> None:
    """A stored chat message (as the socket's chat frame stores one): the history shows it."""
    engine = create_engine(server.database_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO chat_message (table_id, profile_id, seat, name, text, msg_id, "
                    "created_at) VALUES (:t, :p, :s, :n, :x, :m, :at)"
                ),
                {"t": table_id, "p": who["id"], "s": seat, "n": who["name"], "x": words,
                 "m": f"shot-{words[:20]}", "at": datetime.now(UTC)},
            )  # fmt: skip
    finally:
        engine.dispose()


def check(page: Any, shots: Path, name: str, *selectors: str) -> None:
    screenshot(page, path=str(shots / f"{name}.png"))
    problems = [p for sel in selectors for p in page.evaluate(FITS, sel)]
    problems += page.evaluate(FITS, "main")
    assert problems == [], (name, problems)


def people_for(server: ServerProcess) -> dict[str, dict[str, Any]]:
    out = {}
    for role, name in NAMES.items():
        r = server.http().post("/api/profiles", json={"name": name})
        assert r.status_code == 201, r.text
        out[role] = r.json()
    return out


def seated(server: ServerProcess, who: dict[str, dict[str, Any]], seats: int = 3) -> dict[str, Any]:
    t = api(server, who["host"]["token"], "POST", "/api/tables",
            json={"seats": seats, "options": {"start_player": 0}})  # fmt: skip
    for role in ("guest", "third")[: seats - 1]:
        api(server, who[role]["token"], "POST", f"/api/tables/{t['id']}/join",
            json={"invite_code": t["invite_code"]})  # fmt: skip
    return t  # type: ignore[no-any-return]


def as_person(page: Any, server: ServerProcess, person: dict[str, Any]) -> None:
    """Sign this page in as ``person`` (the session cookie of a device code would do the same;
    the token is set as the cookie the server reads)."""
    page.goto(server.url("/"))
    page.context.add_cookies(
        [{"name": "emara_token", "value": person["token"], "url": server.base}]
    )
    page.evaluate("() => localStorage.setItem('emara.signed_in', '1')")


PLACED = """() => !!document.querySelector(
  'details.person-menu[open] .person-menu-list[data-placed]')"""


def open_menu(page: Any, seat: int) -> Any:
    row = page.locator(f"[data-testid=lobby-seat][data-seat='{seat}']")
    row.get_by_test_id("seat-menu").locator("summary").click()
    page.wait_for_function(PLACED, timeout=WAIT)
    return row


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("where", list(VIEWPORTS))
def test_every_new_screen_fits_in_every_language(
    server: ServerProcess, browser: Any, shots: Path, lang: str, where: str
) -> None:
    vp = VIEWPORTS[where]
    who = people_for(server)
    tag = f"{lang}-{where}"
    lobby = seated(server, who)
    game = seated(server, who, seats=2)
    api(server, who["host"]["token"], "POST", f"/api/tables/{game['id']}/start")
    write_chat(
        server,
        game["id"],
        who["guest"],
        1,
        "Na zdraví! Ein ziemlich langer Satz, der umbrechen muss, ohne die Tabelle zu sprengen.",
    )
    write_chat(server, game["id"], who["host"], 0, "ok")
    with page_in(browser, lang, vp) as host:
        as_person(host, server, who["host"])
        host.goto(server.url(f"/t/{lobby['id']}"))
        host.get_by_test_id("lobby").wait_for(timeout=WAIT)
        row = open_menu(host, 1)
        row.get_by_test_id("remove-person").wait_for(timeout=WAIT)
        check(host, shots, f"seat-menu-{tag}", ".person-menu-list")
        for item, dialog, name in (
            ("remove-person", "remove-dialog", "remove"),
            ("make-host", "host-dialog", "hand-over"),
            ("report-name", "report-dialog", "report-name"),
            ("block-person", "block-dialog", "block"),
        ):
            if not row.get_by_test_id(item).is_visible():
                open_menu(host, 1)
            row.get_by_test_id(item).click()
            host.get_by_test_id(dialog).wait_for(timeout=WAIT)
            check(host, shots, f"{name}-{tag}", "dialog")
            host.get_by_test_id(f"{dialog}-cancel").click()
            host.get_by_test_id(dialog).wait_for(state="detached", timeout=WAIT)
        # the game's chat, its "⚑" and the report of a message
        host.goto(server.url(f"/t/{game['id']}"))
        host.get_by_test_id("game").wait_for(timeout=WAIT)
        if where == "phone":
            host.get_by_test_id("tab-chat").click()
        flag = host.get_by_test_id("chat-report")
        flag.wait_for(timeout=WAIT)
        host.get_by_test_id("chat").scroll_into_view_if_needed()
        host.get_by_test_id("chat-person-menu").locator("summary").click()
        host.wait_for_function(PLACED, timeout=WAIT)
        check(host, shots, f"chat-{tag}", "[data-testid=chat]", ".person-menu-list")
        host.keyboard.press("Escape")
        flag.click()
        host.get_by_test_id("report-dialog").wait_for(timeout=WAIT)
        check(host, shots, f"report-message-{tag}", "dialog")
        host.get_by_test_id("report-dialog-cancel").click()
        # the profile: People I play with (each with "Block"), the people I blocked
        api(server, who["host"]["token"], "POST", "/api/me/blocks",
            json={"profile_id": who["third"]["id"]})  # fmt: skip
        host.goto(server.url("/profile"))
        section = host.get_by_test_id("blocked-people-section")
        section.get_by_test_id("block-listed").wait_for(timeout=WAIT)
        host.get_by_test_id("people-section").scroll_into_view_if_needed()
        check(host, shots, f"profile-blocked-{tag}", "[data-testid=blocked-people-section]")
    # the page of a person the host removed
    api(server, who["host"]["token"], "POST", f"/api/tables/{lobby['id']}/seats/1/remove")
    with page_in(browser, lang, vp) as guest:
        as_person(guest, server, who["guest"])
        guest.goto(server.url(f"/t/{lobby['id']}?invite={lobby['invite_code']}"))
        guest.get_by_test_id("removed").wait_for(timeout=WAIT)
        check(guest, shots, f"removed-{tag}", "[data-testid=removed]")
