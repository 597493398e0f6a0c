"""Browser contexts handed out again: a context a test closes is emptied and kept for the next
test that asks for one with the same options, with its HTTP cache warm.

Why: a fresh context starts with an empty cache, so its first page fetches and compiles the
whole client (80 files). Measured on the rules page: a fresh context and that page cost Chromium,
the driver and the server about 2.0 CPU-s; a new page in a context that loaded it before, 0.85.
The browser suite asks for about 180 contexts.

What a test sees is a context as good as new:
- ``close()`` closes every page, removes the cookies, the granted permissions and the init
  scripts, and clears the site data (local storage, IndexedDB, service workers, Cache Storage)
  of every origin its pages visited; only the HTTP cache (static files, their compiled code)
  is kept.
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
SITE_DATA = "local_storage,indexeddb,service_workers,cache_storage,file_systems,websql"
CLOCK_INSTALLED = "() => typeof globalThis.__pwClock !== 'undefined'"


@dataclass
class Lease:
    """What the pool knows of one of its contexts while a test holds it."""

    out: bool = True  # held by a test (False once it is back in the pool)
    spent: bool = False  # a lasting act was done: close it for real
    origins: set[str] = field(default_factory=set)  # the http(s) origins its pages visited
    scripts: list[Any] = field(default_factory=list)  # its init scripts, removed on return


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
            page = made_page(*args, **kwargs)
            page.on("framenavigated", lambda frame: note_origin(frame.url))
            return page

        def note_origin(url: str) -> None:
            origin = origin_of(url)
            if origin:
                lease.origins.add(origin)

        def close(**kwargs: Any) -> None:
            if not lease.out:
                return  # closed twice: it is already back in the pool
            lease.out = False
            if lease.spent or not self.empty(ctx, lease.origins, lease.scripts):
                real_close(**kwargs)
                return
            lease.origins = set()
            lease.scripts = []
            self.idle.setdefault(key, []).append((ctx, lease))

        ctx.add_init_script = add_init_script
        ctx.new_page = new_page
        ctx.close = close

    @staticmethod
    def empty(ctx: Any, origins: set[str], scripts: list[Any]) -> bool:
        """Put ``ctx`` back to a fresh context's state but for its HTTP cache; False if it cannot
        be (it is then closed for real)."""
        try:
            pages = [p for p in ctx.pages if not p.is_closed()]
            if not pages:
                return False  # no page to clear the site data from
            keeper = pages[0]
            origins = origins | {origin_of(p.url) for p in pages} - {""}
            for page in pages:
                if page.evaluate(CLOCK_INSTALLED):
                    return False
            if origins:
                cdp = type(ctx).new_cdp_session(ctx, keeper)  # not the wrapper that marks it spent
                try:
                    for origin in sorted(origins):
                        cdp.send(
                            "Storage.clearDataForOrigin",
                            {"origin": origin, "storageTypes": SITE_DATA},
                        )
                finally:
                    cdp.detach()
            for script in scripts:
                script.close()
            for page in pages:
                page.close()
            ctx.clear_cookies()
            ctx.clear_permissions()
            return True
        except Exception:
            return False


def origin_of(url: str) -> str:
    """``scheme://host:port`` of an http(s) URL, else ""."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""
