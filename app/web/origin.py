"""Cross-site requests cannot act: every state-changing HTTP request (any method but GET, HEAD
and OPTIONS, on every route, present and future) is refused when a browser says it comes from
another site, or from another origin of the same site.

How a browser says so (the order of Go's ``http.CrossOriginProtection``):

1. ``Sec-Fetch-Site`` (every current browser sends it): ``same-origin`` and ``none`` (the person
   acted in the browser itself) may act; ``same-site`` and ``cross-site`` may not.
2. Without it, ``Origin``: the server's own origin (``http(s)://`` + the ``Host`` it was asked
   for) may act; any other origin, ``null`` included, may not.
3. Neither header: not a browser (or one too old to send them, which the ``SameSite=Lax``
   cookie covers): the request is judged by its credentials as usual.

Origins listed in ``EMARA_ALLOWED_ORIGINS`` may always act. A request carrying an
``Authorization: Bearer`` header and no session cookie is a script holding its own token (a
page of another site cannot make a browser add that header without a CORS permission this
server never grants): it is judged by its token alone, wherever it comes from.

A refusal is ``403`` with the error code ``cross_site``, before any route runs: nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import orjson
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import AppError

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
ACTING_SITES: Final = frozenset({"same-origin", "none"})


class CrossSite(AppError):
    status = 403
    code = "cross_site"


def _is_script(headers: Headers, cookie_name: str) -> bool:
    """A Bearer token and no session cookie: a script, judged by its token."""
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    return cookie_name not in cookie_parser(headers.get("cookie", ""))


def refusal(headers: Headers, allowed: frozenset[str], cookie_name: str) -> str | None:
    """Why a state-changing request with these headers may not act, or None when it may."""
    if _is_script(headers, cookie_name):
        return None
    origin = headers.get("origin")
    if origin is not None and origin.rstrip("/") in allowed:
        return None
    site = headers.get("sec-fetch-site")
    if site is not None:
        if site.lower() in ACTING_SITES:
            return None
        return f"a request from another {'origin' if site == 'same-site' else 'site'} cannot act"
    if origin is None:
        return None
    host = headers.get("host", "")
    if host and origin.rstrip("/") in (f"http://{host}", f"https://{host}"):
        return None
    return "a request from another origin cannot act"


class CrossSiteGuard:
    """Pure ASGI: refuses a cross-site state-changing request before routing (``refusal``)."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str], cookie_name: str) -> None:
        self.app = app
        self.allowed = frozenset(o.rstrip("/") for o in allowed_origins)
        self.cookie_name = cookie_name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            why = refusal(Headers(scope=scope), self.allowed, self.cookie_name)
            if why is not None:
                body = orjson.dumps({"error": CrossSite(why).to_dict()})
                await send(
                    {
                        "type": "http.response.start",
                        "status": CrossSite.status,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
