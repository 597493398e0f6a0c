"""The client's modules in Chromium, without a game: the socket module's reconnect (hello first,
then the unanswered move again with the same move_id), its backoff, the plural rules of each
catalogue, and sign-out from the profile menu.

The socket test replaces window.WebSocket by a recording fake in the page, so it drives every
open, close and answer itself; waits are for a condition in the page, never a fixed time.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_play import VIEWPORT

pytestmark = [pytest.mark.browser]

FAKE_SOCKET = """() => {
window.__sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url; this.readyState = 0; this.sent = [];
    window.__sockets.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose && this.onclose({});
  }
  open() { this.readyState = 1; this.onopen && this.onopen({}); }
  answer(frame) { this.onmessage && this.onmessage({ data: JSON.stringify(frame) }); }
}
window.WebSocket = FakeSocket;
}"""


@pytest.fixture(scope="module")
def one_page(server: Any, browser: Any) -> Any:
    """One browser page for the module: each test gets it back as a new visitor's (below)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    try:
        yield ctx.new_page()
    finally:
        ctx.close()


@pytest.fixture
def page(server: Any, one_page: Any) -> Any:
    """The landing page, freshly loaded (its modules new, no fake left in place), for a visitor
    the site knows nothing of: no cookie, nothing stored."""
    one_page.context.clear_cookies()
    one_page.goto(server.url("/favicon.svg"))  # the site's origin, without the client
    one_page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    one_page.goto(server.url("/"))
    one_page.get_by_test_id("create-table").wait_for(timeout=10000)
    return one_page


def test_a_move_sent_while_reconnecting_goes_again_after_hello(page: Any) -> None:
    page.evaluate(FAKE_SOCKET)
    page.evaluate(
        """async () => {
             const { TableSocket } = await import('/js/socket.js');
             window.__version = 7;
             const s = new TableSocket({ url: 'ws://x/ws/tables/T',
                                         since: () => window.__version });
             window.__s = s;
             s.start();
             window.__s1 = window.__sockets[0];
             window.__s1.open();
             window.__result = null;
             s.request({ type: 'move', move: { kind: 'end_turn' }, expected_version: 7,
                         move_id: 'm-1' }).then((a) => (window.__result = a));
           }"""
    )
    first = page.evaluate("() => window.__s1.sent")
    assert [f["type"] for f in first] == ["hello", "move"]
    assert first[0]["since"] == 7
    move = first[1]
    assert move["move_id"] == "m-1" and isinstance(move["ref"], int)

    # The socket drops before the answer; the module opens a new one after its backoff.
    page.evaluate("() => { window.__version = 8; window.__s1.close(); }")
    page.wait_for_function("() => window.__sockets.length === 2", timeout=15000)
    page.evaluate("() => window.__sockets[1].open()")
    second = page.evaluate("() => window.__sockets[1].sent")
    assert [f["type"] for f in second] == ["hello", "move"]
    assert second[0]["since"] == 8
    assert second[1] == move  # the same frame: same move_id, same ref, same expected_version

    # The answer on the new socket settles the request, once.
    page.evaluate(
        "(ref) => window.__sockets[1].answer({type: 'accepted', version: 8, move_id: 'm-1', ref})",
        move["ref"],
    )
    page.wait_for_function("() => window.__result !== null")
    assert page.evaluate("() => window.__result.type") == "accepted"
    page.evaluate("() => { window.__sockets[1].close(); }")
    page.wait_for_function("() => window.__sockets.length === 3", timeout=15000)
    page.evaluate("() => window.__sockets[2].open()")
    assert [f["type"] for f in page.evaluate("() => window.__sockets[2].sent")] == ["hello"]
    page.evaluate("() => window.__s.stop()")


def test_a_refusal_rejects_the_request_with_its_code(page: Any) -> None:
    page.evaluate(FAKE_SOCKET)
    code = page.evaluate(
        """async () => {
             const { TableSocket } = await import('/js/socket.js');
             const s = new TableSocket({ url: 'ws://x/ws/tables/T' });
             s.start();
             window.__sockets[0].open();
             const asked = s.request({ type: 'move', move: { kind: 'end_turn' },
                                       expected_version: 3, move_id: 'm-9' });
             // the server names the move_id of a refused move
             window.__sockets[0].answer({ type: 'error', code: 'stale_version',
                                          message: 'the table has moved on', move_id: 'm-9' });
             try { await asked; return 'accepted'; } catch (e) { return e.code; }
             finally { s.stop(); }
           }"""
    )
    assert code == "stale_version"


def test_the_backoff_grows_with_jitter_and_a_ceiling(page: Any) -> None:
    delays = page.evaluate(
        """async () => {
             const { backoffDelay } = await import('/js/socket.js');
             return [0, 1, 2, 3, 10, 30].map(
               (n) => [backoffDelay(n, () => 0), backoffDelay(n, () => 1)]);
           }"""
    )
    lows = [lo for lo, _ in delays]
    highs = [hi for _, hi in delays]
    assert lows == [250] * 6  # the least wait never reaches zero
    assert highs[:4] == [500, 1000, 2000, 4000]
    assert highs[4:] == [10000, 10000]  # capped


def test_a_swing_that_only_moves_the_card_to_another_slot_says_the_slots(page: Any) -> None:
    texts = page.evaluate(
        """async () => {
             const i18n = await import('/js/i18n.js');
             await i18n.setLang('en');
             const { swingText } = await import('/js/analysis.js');
             const played = { seat: 0, move: { kind: 'play_card', card: 'gold', slot: 2 },
                              summary: [{ items: [] }], events: [] };
             const entry = (move) => ({ ...played, move });
             const name = () => 'Ann';
             return [
               swingText(0, { position: 32, change: -7.5, played,
                 preferred: entry({ kind: 'play_card', card: 'gold', slot: 3 }) }, name),
               swingText(0, { position: 32, change: -7.5, played,
                 preferred: entry({ kind: 'play_card', card: 'take_ring', slot: 3 }) }, name),
             ];
           }"""
    )
    assert "on slot 2" in texts[0] and "on slot 3" in texts[0]
    assert "on slot" not in texts[1]  # another card: the words differ already


def test_a_swing_says_its_cost_and_noise_and_luck_says_what_chance_did(page: Any) -> None:
    texts = page.evaluate(
        """async () => {
             const i18n = await import('/js/i18n.js');
             await i18n.setLang('en');
             const { swingText, luckText } = await import('/js/analysis.js');
             const played = { seat: 0, move: { kind: 'end_turn' }, summary: [],
                              events: [{ type: 'turn_ended', seat: 0 },
                                       { type: 'cards_drawn', seat: 0, count: 3 }] };
             const name = () => 'Ann';
             return [
               swingText(0, { position: 32, cost: 7.5, noise: 0.6, change: -7.5, played,
                 preferred: { ...played, move: { kind: 'end_visit' } } }, name),
               luckText(0, { position: 88, change: 4, noise: 1.1, played }, name),
               luckText(0, { position: 90, change: -2, noise: 0, played: { ...played,
                 events: [{ type: 'event_revealed' }] } }, name),
             ];
           }"""
    )
    assert texts[0].startswith(
        "Move 32: Ann's move cost about 7.5 points of expected final score (± 0.6)"
    )
    assert texts[1] == "Move 88: the cards drawn raised Ann's expected final score by 4 (± 1.1)."
    assert texts[2] == "Move 90: the event turned up lowered Ann's expected final score by 2."


@pytest.mark.parametrize(
    ("lang", "counts", "distinct"),
    [("cs", [1, 3, 5], 3), ("de", [1, 2], 2), ("en", [1, 2], 2)],
)
def test_plural_messages_follow_the_language(
    page: Any, lang: str, counts: list[int], distinct: int
) -> None:
    texts = page.evaluate(
        """async ([lang, counts]) => {
             const i18n = await import('/js/i18n.js');
             await i18n.setLang(lang);
             const out = counts.map((count) => i18n.t('ev.cards_drawn', { who: 'Ann', count }));
             await i18n.setLang('en');
             return out;
           }""",
        [lang, counts],
    )
    assert len(set(texts)) == distinct, texts
    for text, n in zip(texts, counts, strict=True):
        assert text.startswith("Ann") and str(n) in text
    if lang == "cs":
        assert texts == [
            "Ann si dobírá 1 kartu",
            "Ann si dobírá 3 karty",
            "Ann si dobírá 5 karet",
        ]


def _signout_served(server: Any, page: Any) -> bool:
    paths = page.request.get(server.url("/openapi.json")).json()["paths"]
    return "/api/profiles/signout" in paths and "/api/profiles/signout-everywhere" in paths


@pytest.mark.parametrize("everywhere", [False, True])
def test_sign_out_from_the_profile_menu(server: Any, page: Any, everywhere: bool) -> None:
    if not _signout_served(server, page):
        pytest.skip("the server has no POST /api/profiles/signout[-everywhere] yet")
    page.get_by_test_id("name-input").fill("Max")
    page.get_by_test_id("create-table").click()
    page.get_by_test_id("lobby").wait_for(timeout=10000)
    assert page.evaluate("async () => (await fetch('/api/profiles/me')).status") == 200
    page.get_by_test_id("profile-menu").locator("summary").click()
    button = "sign-out-everywhere" if everywhere else "sign-out"
    if everywhere:  # a dialog lists what may be removed too; its button signs out
        page.get_by_test_id(button).click()
        page.get_by_test_id("signout-all-dialog").wait_for(timeout=10000)
        button = "signout-all-go"
    with page.expect_response(lambda r: "/api/profiles/signout" in r.url) as answer:
        page.get_by_test_id(button).click()
    if everywhere:
        # Every other device is cut off; this browser holds a fresh cookie and stays signed in.
        assert answer.value.status == 200
        assert page.evaluate("async () => (await fetch('/api/profiles/me')).status") == 200
        return
    assert answer.value.status == 204
    page.get_by_test_id("recover-input").wait_for(state="attached", timeout=10000)
    assert page.get_by_test_id("profile-name").count() == 0
    assert page.evaluate("async () => (await fetch('/api/profiles/me')).status") == 401
    assert not [c for c in page.context.cookies() if c["name"] == "emara_token" and c["value"]]


def test_a_redraw_in_place_keeps_what_did_not_change_and_rebuilds_what_has_a_handler(
    page: Any,
) -> None:
    """morph.js, which draws the table over its last drawing: the page ends up exactly as the new
    copy; nodes the copy repeats stay the same nodes (a reader's focus and scroll stay on them);
    an element built with a handler is replaced when it changed, so its new handler runs; a form
    field is replaced when its value changed; a banner put in first shifts no later sibling."""
    found = page.evaluate(
        """async () => {
             const { h } = await import('/js/dom.js');
             const { morph } = await import('/js/morph.js');
             const clicks = [];
             const draw = (n, banner) => h('div.game', { 'data-n': String(n) },
               banner ? h('p.banner', { 'data-testid': 'banner' }, 'news ' + n) : null,
               h('section.board', h('span.same', 'unchanged'), h('span.count', String(n))),
               h('button', { type: 'button', 'data-testid': 'go', onclick: () => clicks.push(n) },
                 n < 2 ? 'go' : 'go on'),
               h('input', { value: 'v' + Math.min(n, 2) }),
               h('ul.log', [...Array(n)].map((_, i) =>
                 h('li', { 'data-v': String(i) }, 'line ' + i))));
             const root = document.createElement('div');
             document.body.append(root);
             const shown = draw(1, false);
             root.append(shown);
             const board = shown.querySelector('.board');
             const same = shown.querySelector('.same');
             const button = shown.querySelector('button');
             const input = shown.querySelector('input');
             const first = shown.querySelector('li');
             const kept = morph(shown, draw(1, false));
             const keptAll = kept === shown && shown.querySelector('button') === button
               && shown.querySelector('input') === input;
             const copy = draw(2, true);
             const expected = copy.outerHTML;
             const after = morph(shown, copy);
             shown.querySelector('button').click();
             const out = {
               keptAll,
               sameRoot: after === shown,
               html: shown.outerHTML === expected,
               boardKept: shown.querySelector('.board') === board,
               sameKept: shown.querySelector('.same') === same,
               buttonNew: shown.querySelector('button') !== button,
               clicks,
               inputNew: shown.querySelector('input') !== input
                 && shown.querySelector('input').value === 'v2',
               firstLineKept: shown.querySelector('li') === first,
               lines: shown.querySelectorAll('li').length,
             };
             root.remove();
             return out;
           }"""
    )
    assert found == {
        "keptAll": True,
        "sameRoot": True,
        "html": True,
        "boardKept": True,
        "sameKept": True,
        "buttonNew": True,
        "clicks": [2],
        "inputNew": True,
        "firstLineKept": True,
        "lines": 2,
    }
