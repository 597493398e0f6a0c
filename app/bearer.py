"""Which token a request presents: the ``Authorization: Bearer`` header's, else the cookie's."""

from __future__ import annotations


def token_from(authorization: str | None, cookie: str | None) -> str | None:
    """The Bearer token when one is sent, else the cookie's (another scheme is not ours)."""
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    return cookie or None
