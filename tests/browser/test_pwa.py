"""The installable app: the manifest and its icons, the service worker (served with its build,
registered, caching the static client and never an /api/ answer, opening the app offline), and the
push opt-in of the profile menu.

Headless Chromium has no push service, so ``PushManager.subscribe`` rejects there: the push test
stubs the browser's subscription (a fake PushSubscription with an https endpoint and keys of the
right shape) and checks the UI path and the API calls the page makes with it against the server.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import ROOT
from tests.browser.test_play import VIEWPORT, ConsoleWatch

pytestmark = [pytest.mark.browser]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def test_manifest_is_valid_json_with_icons_that_exist(server: Any) -> None:
    with httpx.Client(base_url=server.base) as http:
        res = http.get("/manifest.webmanifest")
        assert res.status_code == 200
        assert res.headers["content-type"].startswith("application/manifest+json")
        manifest = json.loads(res.text)
        assert manifest["name"] == "Crown of Emara"
        assert manifest["short_name"]
        assert manifest["start_url"] == "/games"
        assert manifest["display"] == "standalone"
        assert manifest["theme_color"].startswith("#")
        assert manifest["background_color"].startswith("#")
        pngs = {}
        for icon in manifest["icons"]:
            got = http.get(icon["src"])
            assert got.status_code == 200, icon["src"]
            assert got.headers["content-type"] == icon["type"]
            if icon["type"] == "image/png":
                w, h = png_size(got.content)
                assert icon["sizes"] == f"{w}x{h}"
                pngs[(w, icon.get("purpose", "any"))] = icon["src"]
        assert (192, "any") in pngs and (512, "any") in pngs and (512, "maskable") in pngs
        page = http.get("/games").text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page
        assert '<meta name="theme-color"' in page
        touch = http.get("/icons/apple-touch-icon.png")
        assert touch.status_code == 200 and png_size(touch.content) == (180, 180)


def test_the_service_worker_goes_out_with_its_build_and_file_list(server: Any) -> None:
    with httpx.Client(base_url=server.base) as http:
        res = http.get("/sw.js")
        assert res.status_code == 200
        assert "javascript" in res.headers["content-type"]
        assert res.headers["cache-control"] == "no-cache"
        line = next(x for x in res.text.splitlines() if x.startswith("const BUILD = "))
        build = json.loads(line.removeprefix("const BUILD = ").removesuffix(";"))
        assert build["version"] != "dev" and len(build["version"]) == 16
        v = f"/v/{build['version']}"
        assert f"{v}/js/router.js" in build["files"] and f"{v}/css/app.css" in build["files"]
        assert "/i18n/cs.json" in build["files"] and "/js/router.js" not in build["files"]
        # the page the worker keeps as its shell names the same files
        assert f'src="{v}/js/router.js"' in http.get("/").text
        assert "/icons/icon-192.png" in build["files"]
        assert not [f for f in build["files"] if f.startswith(("/api", "/ws"))]
        for f in build["files"]:
            assert http.get(f).status_code == 200, f


def test_a_changed_static_file_is_a_new_worker_with_a_new_cache(tmp_path: Path) -> None:
    from app.web.build import current

    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "sw.js").write_text((ROOT / "static" / "sw.js").read_text())
    (static / "index.html").write_text("<!doctype html>")
    (static / "js" / "a.js").write_text("export const a = 1;")

    def build() -> dict[str, Any]:
        worker = current(static).worker
        assert worker is not None
        line = next(x for x in worker.splitlines() if x.startswith("const BUILD"))
        return dict(json.loads(line.removeprefix("const BUILD = ").removesuffix(";")))

    first = build()
    assert first["files"] == [f"/v/{first['version']}/js/a.js"]
    assert build() == first  # unchanged: the same worker
    (static / "js" / "a.js").write_text("export const a = 22;")
    second = build()
    assert second["version"] != first["version"]
    assert second["files"] == [f"/v/{second['version']}/js/a.js"]


@pytest.fixture
def ctx(browser: Any) -> Iterator[Any]:
    c = browser.new_context(viewport=VIEWPORT, service_workers="allow")
    try:
        yield c
    finally:
        c.close()


API = """async ([method, path, body]) => {
  const res = await fetch(path, { method, headers: { 'Content-Type': 'application/json' },
                                  body: body === null ? undefined : JSON.stringify(body) });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}"""


def sign_up(page: Any, name: str) -> Any:
    """A profile made over the API, and the page's hint that this browser is signed in."""
    out = call(page, "POST", "/api/profiles", {"name": name})
    page.evaluate("() => localStorage.setItem('emara.signed_in', '1')")
    return out


def call(page: Any, method: str, path: str, body: Any = None) -> Any:
    res = page.evaluate(API, [method, path, body])
    assert res["status"] < 300, (method, path, res)
    return res["body"]


def cached_urls(page: Any) -> list[str]:
    return list(
        page.evaluate(
            """async () => {
                 const out = [];
                 for (const name of await caches.keys()) {
                   const cache = await caches.open(name);
                   for (const req of await cache.keys()) out.push(new URL(req.url).pathname);
                 }
                 return out;
               }"""
        )
    )


def test_service_worker_registers_caches_the_client_and_never_an_api_answer(
    server: Any, ctx: Any
) -> None:
    watch = ConsoleWatch()
    page = ctx.new_page()
    watch.attach(page, "player")
    violations: list[str] = []
    page.on("console", lambda m: "Content Security Policy" in m.text and violations.append(m.text))
    page.goto(server.url("/"))
    page.get_by_test_id("create-table").wait_for(timeout=15000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    # a profile, a table with a bot, a started game, a move, My games: plenty of API answers
    sign_up(page, "Offline Olga")
    tbl = call(page, "POST", "/api/tables", {"seats": 2, "options": {"start_player": 0}})
    call(page, "POST", f"/api/tables/{tbl['id']}/seats/1/bot", {"level": "random"})
    call(page, "POST", f"/api/tables/{tbl['id']}/start", {})
    page.goto(server.url(f"/t/{tbl['id']}"))
    move = page.locator("[data-testid=legal-move], [data-testid=end-turn]").first
    move.wait_for(timeout=20000)
    before = int(page.evaluate("document.body.dataset.version"))
    move.click()
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v", arg=before, timeout=20000
    )
    page.goto(server.url("/games"))
    page.get_by_test_id("my-game").first.wait_for(timeout=15000)

    urls = cached_urls(page)
    v = "/v/" + page.evaluate("document.querySelector('script[type=module]').src").split("/")[4]
    assert "/" in urls and f"{v}/js/router.js" in urls and f"{v}/js/table.js" in urls
    assert "/i18n/en.json" in urls and f"{v}/css/app.css" in urls
    assert not [u for u in urls if u.startswith(("/api", "/ws"))], urls
    names = page.evaluate("caches.keys()")
    assert len(names) == 1 and names[0].startswith("emara-static-")
    assert not watch.errors, watch.errors
    assert not violations, violations

    # installed and offline: the app still opens (the shell and its modules come from the cache)
    ctx.set_offline(True)
    try:
        page.goto(server.url("/games"))
        page.locator("header#top a.brand-link").wait_for(timeout=15000)
        assert page.evaluate("document.querySelector('#main') !== null")
    finally:
        ctx.set_offline(False)


STUB_PUSH = """() => {
  const sub = {
    endpoint: 'http://127.0.0.1:9/send/emara-device-1',
    expirationTime: null,
    toJSON() {
      return { endpoint: this.endpoint, expirationTime: null,
               keys: { p256dh: 'B' + 'A'.repeat(86), auth: 'QUJDREVGR0hJSktMTU5PUA' } };
    },
    async unsubscribe() { window.__pushSub = null; return true; },
  };
  window.__pushSub = null;
  window.__subscribeCalls = [];
  PushManager.prototype.getSubscription = async function () { return window.__pushSub; };
  PushManager.prototype.subscribe = async function (opts) {
    window.__subscribeCalls.push({ userVisibleOnly: opts.userVisibleOnly,
                                   keyLength: opts.applicationServerKey.byteLength });
    window.__pushSub = sub;
    return sub;
  };
}"""


def test_push_opt_in_subscribes_this_device_and_stops_again(server: Any, ctx: Any) -> None:
    ctx.grant_permissions(["notifications"], origin=server.base)
    page = ctx.new_page()
    watch = ConsoleWatch()
    watch.attach(page, "player")
    page.goto(server.url("/"))
    page.get_by_test_id("create-table").wait_for(timeout=15000)
    sign_up(page, "Push Pavla")
    page.add_init_script(f"({STUB_PUSH})()")
    page.reload()
    page.get_by_test_id("profile-menu").wait_for(timeout=15000)
    page.get_by_test_id("profile-menu").locator("summary").click()
    toggle = page.get_by_test_id("push-toggle")
    toggle.wait_for(timeout=10000)
    assert toggle.get_attribute("data-on") == "0"
    with page.expect_response(
        lambda r: r.url.endswith("/api/push/subscriptions") and r.request.method == "POST",
        timeout=15000,
    ) as posted:
        toggle.click()
    res = posted.value
    assert res.status == 201, res.text()
    sent = json.loads(res.request.post_data or "{}")
    assert sent["endpoint"] == "http://127.0.0.1:9/send/emara-device-1"
    assert set(sent["keys"]) == {"p256dh", "auth"} and sent["lang"] == "en"
    calls = page.evaluate("window.__subscribeCalls")
    assert calls == [{"userVisibleOnly": True, "keyLength": 65}]
    page.wait_for_function(
        "() => document.querySelector('[data-testid=push-toggle]').dataset.on === '1'",
        timeout=10000,
    )
    with page.expect_response(
        lambda r: r.url.endswith("/api/push/subscriptions") and r.request.method == "DELETE",
        timeout=15000,
    ) as deleted:
        toggle.click()
    assert deleted.value.status == 204
    page.wait_for_function(
        "() => document.querySelector('[data-testid=push-toggle]').dataset.on === '0'",
        timeout=10000,
    )
    assert page.evaluate("window.__pushSub") is None

    # on again, then signing out: this device stops getting the profile's notifications first
    with page.expect_response(
        lambda r: r.url.endswith("/api/push/subscriptions") and r.request.method == "POST"
    ):
        toggle.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=push-toggle]').dataset.on === '1'",
        timeout=10000,
    )
    seen: list[str] = []
    page.on(
        "request",
        lambda r: (
            ("/api/push/" in r.url or "/signout" in r.url)
            and seen.append(f"{r.method} {r.url.split('/api/', 1)[1]}")
        ),
    )
    with page.expect_response(lambda r: r.url.endswith("/api/profiles/signout"), timeout=15000):
        page.get_by_test_id("sign-out").click()
    assert seen == ["DELETE push/subscriptions", "POST profiles/signout"]
    assert page.evaluate("window.__pushSub") is None
    assert not watch.errors, watch.errors


# Installed in the running worker: every notification it shows is recorded once the browser has
# taken it (showNotification resolved), and a waiter for a tag resolves when that one is shown.
# Headless Chromium's own notification list (getNotifications) sometimes leaves out a notification
# that was shown — seen here: the worker's showNotification resolved and its list right after
# lacked the tag — so the test reads what the worker gave the browser, not that list. A tag not
# shown within 30 s answers null (a failure, like Playwright's own timeouts), never a hang.
RECORD_NOTIFICATIONS = """() => {
  self.__shown = {};
  self.__waiting = {};
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    return show.call(this, title, options).then(() => {
      const seen = { title, body: options.body, url: options.data.url };
      self.__shown[options.tag] = seen;
      (self.__waiting[options.tag] || []).forEach((done) => done(seen));
    });
  };
  self.__shownWith = (tag) =>
    self.__shown[tag] ? Promise.resolve(self.__shown[tag])
      : new Promise((done) => {
          (self.__waiting[tag] = self.__waiting[tag] || []).push(done);
          setTimeout(() => done(null), 30000);
        });
}"""


def test_a_push_message_becomes_a_notification_that_opens_only_this_site(
    server: Any, ctx: Any
) -> None:
    """A push delivered to the service worker (through the browser's DevTools protocol, as a
    push service would) shows the payload's title and body and keeps the table's path for the
    click; a URL of another site in a payload is replaced by My games."""
    ctx.grant_permissions(["notifications"], origin=server.base)
    page = ctx.new_page()
    page.goto(server.url("/"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)

    # Playwright stays attached to the worker, and the browser does not stop a worker that a
    # debugger is attached to: what is installed here is there for every push below.
    def ours(w: Any) -> bool:
        return bool(w.url == server.url("/sw.js"))

    known = [w for w in ctx.service_workers if ours(w)]
    worker = known[0] if known else ctx.wait_for_event("serviceworker", ours, timeout=30000)
    worker.evaluate(RECORD_NOTIFICATIONS)
    cdp = ctx.new_cdp_session(page)
    regs: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: regs.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(400):  # events arrive while the page is asked something
        if regs:
            break
        page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
    registration = next(r for r in regs if r["scopeURL"] == server.url("/"))

    def deliver(payload: dict[str, Any]) -> dict[str, Any]:
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": server.base,
                "registrationId": registration["registrationId"],
                "data": json.dumps(payload),
            },
        )
        shown: dict[str, Any] = worker.evaluate("(tag) => self.__shownWith(tag)", payload["tag"])
        return shown

    got = deliver(
        {
            "title": "Your turn",
            "body": "Your turn at Ada's table",
            "url": "/t/GhxMwgBYQOBR",
            "tag": "emara-GhxMwgBYQOBR",
            "kind": "your_turn",
            "params": {},
        }
    )
    assert got == {
        "title": "Your turn",
        "body": "Your turn at Ada's table",
        "url": "/t/GhxMwgBYQOBR",
    }
    elsewhere = {"title": "Elsewhere", "body": "x", "url": "https://evil.example/t/1", "tag": "e1"}
    assert deliver(elsewhere)["url"] == "/games"
    protocol = {"title": "Protocol", "body": "x", "url": "//evil.example/t/1", "tag": "e2"}
    assert deliver(protocol)["url"] == "/games"
