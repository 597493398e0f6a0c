"""Security headers on every HTTP response (pure ASGI, so streamed and error responses too).

The browser client needs nothing beyond its own origin: scripts and styles are files of
``static/`` (no inline script or ``style`` attribute, no eval), images are files or ``data:``
URLs, and the only connections are same-origin fetches and the table's WebSocket. Chromium (CSP
Level 3) lets ``connect-src 'self'`` cover ``ws://`` and ``wss://`` to the page's own host, so no
socket origin is listed.

``/docs`` (the interactive OpenAPI page) is no exception: Swagger UI is served from this origin
(app/web/docs.py) and runs under the same policy.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# Only features Chromium knows (an unknown one is a console error on every page).
PERMISSIONS_POLICY: Final = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
)
INTERNAL_ERROR: Final = b'{"error": {"code": "internal_error", "message": "internal server error"}}'
_NAMES: Final = frozenset(name for name, _ in SECURITY_HEADERS)


class SecurityHeaders:
    """Puts SECURITY_HEADERS on every HTTP response, replacing any the app set itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = list(SECURITY_HEADERS)

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message["headers"] = kept + headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # An unhandled error: answer the JSON 500 here, with the headers (the server's own
            # error page would go out without them), then let it propagate to be logged.
            if not started:
                await send_with_headers(
                    {
                        "type": "http.response.start",
                        "status": 500,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": INTERNAL_ERROR})
            raise
