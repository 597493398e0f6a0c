"""The cookie of a session that a link or code opens on this browser, replacing the one it had."""

from __future__ import annotations

from fastapi import Request, Response

from app.profiles.deps import RENEWED_TOKEN_HEADER, set_session_cookie


def sign_in_here(request: Request, response: Response, token: str) -> None:
    """The new session is this browser's cookie; a renewal of the session it replaces, made
    while this request was read, is not handed out with it."""
    if RENEWED_TOKEN_HEADER in response.headers:
        del response.headers[RENEWED_TOKEN_HEADER]
        del response.headers["set-cookie"]  # the renewed cookie: the only one set before
    set_session_cookie(request, response, token)
