"""Browser contexts handed out again: a context a test closes is emptied and kept for the next
test that asks for one with the same options, with its HTTP cache warm.

Why: a fresh context starts with an empty cache, so its first page fetches and compiles the
whole client (80 files). Measured on the rules page: a fresh context and that page cost Chromium,
the driver and the server about 2.0 CPU-s; a new page in a context that loaded it before, 0.85.
The browser suite asks for about 180 contexts.

A page is kept too: opening a page costs the browser a renderer's start and Playwright's set-up
of the page, about as much again as loading the client into it (measured, bench/page_load.py:
a new page of a warm context loading the rules page 1.2 to 1.6 CPU-s, the same page opened by
a navigation of a page already open 0.6 to 0.8).

What a test sees is a context as good as new:
- ``close()`` closes every page, removes the cookies, the granted permissions and the init
  scripts, and clears the site data (local storage, session storage, IndexedDB, service
  workers, Cache Storage) of every origin its pages visited; only the HTTP cache (static files,
  their compiled code) is kept.
- One page the test opened with ``new_page()`` stays open, taken to ``about:blank`` with its
  history emptied and the mouse at the corner, and is the next test's first ``new_page()``.
  ``pages`` lists it until then. A page on which the test did something lasting (a listener,
  a route, a binding, an init script, headers, a viewport or media of its own, a timeout) is
  closed, not kept.
- A context whose state cannot be put back is closed for real: one that exposed a binding,
  routed requests, set headers, geolocation or offline mode, opened a CDP session, listened on
  the context, or installed the fake clock. Contexts that allow service workers, record, or
  start from a storage state or a proxy are never handed out again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

# Context methods after which the context is not handed out again.
LASTING = (
    "expose_binding",
    "expose_function",
    "route",
    "route_from_har",
    "route_web_socket",
    "set_extra_http_headers",
    "set_geolocation",
    "set_offline",
    "new_cdp_session",
    "on",
    "once",
    "set_default_timeout",
    "set_default_navigation_timeout",
)
# Options that make a context one of a kind.
UNPOOLED_OPTIONS = ("record_har_path", "record_video_dir", "storage_state", "proxy")
# Page methods after which the page is closed, not kept for the next test.
PAGE_LASTING = (
    "on",
    "once",
    "add_init_script",
    "route",
    "route_from_har",
    "route_web_socket",
    "expose_binding",
    "expose_function",
    "set_extra_http_headers",
    "set_viewport_size",
    "emulate_media",
    "set_default_timeout",
    "set_default_navigation_timeout",
)
SITE_DATA = "local_storage,indexeddb,service_workers,cache_storage,file_systems,websql"
CLOCK_INSTALLED = "() => typeof globalThis.__pwClock !== 'undefined'"


@dataclass
class Lease:
    """What the pool knows of one of its contexts while a test holds it."""

    out: bool = True  # held by a test (False once it is back in the pool)
    spent: bool = False  # a lasting act was done: close it for real
    origins: set[str] = field(default_factory=set)  # the http(s) origins its pages visited
    scripts: list[Any] = field(default_factory=list)  # its init scripts, removed on return
    made: list[Any] = field(default_factory=list)  # pages made by new_page() that may be kept
    visited: dict[Any, set[str]] = field(default_factory=dict)  # a made page's http(s) origins
    kept: Any = None  # the page kept from the last lease, for the next new_page()


class ContextPool:
    """Wraps ``browser.new_context``: contexts with the same options are reused."""

    def __init__(self, browser: Any) -> None:
        self.made = browser.new_context
        self.idle: dict[str, list[tuple[Any, Lease]]] = {}

    def new_context(self, **options: Any) -> Any:
        key = self.key(options)
        if key is not None and self.idle.get(key):
            ctx, lease = self.idle[key].pop()
            lease.out = True
            return ctx
        ctx = self.made(**options)
        if key is not None:
            self.adopt(ctx, key)
        return ctx

    @staticmethod
    def key(options: dict[str, Any]) -> str | None:
        if options.get("service_workers") == "allow":
            return None
        if any(options.get(k) is not None for k in UNPOOLED_OPTIONS):
            return None
        return json.dumps(options, sort_keys=True, default=repr)

    def adopt(self, ctx: Any, key: str) -> None:
        """Give ``ctx`` a ``close`` that returns it here, and mark it spent on a lasting act."""
        real_close = ctx.close
        lease = Lease()

        def spend(name: str) -> Any:
            method = getattr(ctx, name)

            def marked(*args: Any, **kwargs: Any) -> Any:
                lease.spent = True
                return method(*args, **kwargs)

            return marked

        for name in LASTING:
            if hasattr(ctx, name):
                setattr(ctx, name, spend(name))

        made_script = ctx.add_init_script

        def add_init_script(*args: Any, **kwargs: Any) -> Any:
            script = made_script(*args, **kwargs)
            lease.scripts.append(script)
            return script

        made_page = ctx.new_page

        def new_page(*args: Any, **kwargs: Any) -> Any:
            if lease.kept is not None and not args and not kwargs:
                page, lease.kept = lease.kept, None
                if not page.is_closed():
                    lease.made.append(page)
                    lease.visited[page] = set()
                    return page
            page = made_page(*args, **kwargs)
            lease.visited[page] = set()
            page.on("framenavigated", lambda frame: note_origin(page, frame.url))
            for name in PAGE_LASTING:
                setattr(page, name, unkept(page, name))
            lease.made.append(page)
            return page

        def unkept(page: Any, name: str) -> Any:
            method = getattr(page, name)

            def marked(*args: Any, **kwargs: Any) -> Any:
                if page in lease.made:
                    lease.made.remove(page)
                return method(*args, **kwargs)

            return marked

        def note_origin(page: Any, url: str) -> None:
            origin = origin_of(url)
            if origin:
                lease.origins.add(origin)
                lease.visited.setdefault(page, set()).add(origin)

        def close(**kwargs: Any) -> None:
            if not lease.out:
                return  # closed twice: it is already back in the pool
            lease.out = False
            if lease.spent or not self.empty(ctx, lease):
                real_close(**kwargs)
                return
            lease.origins = set()
            lease.scripts = []
            lease.made = []
            lease.visited = {}
            self.idle.setdefault(key, []).append((ctx, lease))

        ctx.add_init_script = add_init_script
        ctx.new_page = new_page
        ctx.close = close

    @staticmethod
    def empty(ctx: Any, lease: Lease) -> bool:
        """Put ``ctx`` back to a fresh context's state but for its HTTP cache and one page taken
        to ``about:blank`` (``lease.kept``); False if it cannot be (it is then closed for real)."""
        try:
            pages = [p for p in ctx.pages if not p.is_closed()]
            if not pages:
                return False  # no page to clear the site data from
            origins = lease.origins | {origin_of(p.url) for p in pages} - {""}
            for page in pages:
                if page.evaluate(CLOCK_INSTALLED):
                    return False
            keeper = next((p for p in lease.made if keepable(p, lease.visited.get(p))), None)
            host = keeper or pages[0]  # the page the site data is cleared through
            for page in pages:
                if page is not host:
                    page.close()
            if keeper is not None:
                # session storage is the tab's own, and only its document's origin reaches it
                if origin_of(keeper.url):
                    keeper.evaluate("() => sessionStorage.clear()")
                keeper.goto("about:blank")  # the site's documents are gone before their data
                keeper.mouse.move(0, 0)
            cdp = type(ctx).new_cdp_session(ctx, host)  # not the wrapper that marks it spent
            try:
                for origin in sorted(origins):
                    cdp.send(
                        "Storage.clearDataForOrigin",
                        {"origin": origin, "storageTypes": SITE_DATA},
                    )
                if keeper is not None:
                    cdp.send("Page.resetNavigationHistory")
            finally:
                cdp.detach()
            for script in lease.scripts:
                script.close()
            ctx.clear_cookies()
            ctx.clear_permissions()
            if keeper is None:
                host.close()
            lease.kept = keeper
            return True
        except Exception:
            return False


def keepable(page: Any, visited: set[str] | None) -> bool:
    """A made page may be kept when it is open and has been on one http(s) origin at most, the
    one it shows now (whose session storage it can clear)."""
    if page.is_closed() or visited is None:
        return False
    return visited <= {origin_of(page.url)}


def origin_of(url: str) -> str:
    """``scheme://host:port`` of an http(s) URL, else ""."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""
