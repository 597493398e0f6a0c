"""The secrets of e-mail links: one-time tokens (only their hash is stored) and the signed,
per-address unsubscribe token (good for as long as that address is the profile's)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from itsdangerous import BadSignature, URLSafeSerializer

MAX_TOKEN_CHARS = 200


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def address_digest(address: str) -> str:
    return hashlib.sha256(address.encode()).hexdigest()[:24]


class UnsubscribeSigner:
    def __init__(self, secret_key: str, previous_keys: Sequence[str] = ()) -> None:
        keys = [k for k in previous_keys if k and k != secret_key] + [secret_key]
        self._s = URLSafeSerializer(keys, salt="emara.email-unsubscribe")

    def issue(self, profile_id: str, address: str) -> str:
        return self._s.dumps({"p": profile_id, "a": address_digest(address)})

    def read(self, token: str) -> tuple[str, str] | None:
        """(profile id, address digest) of a correctly signed token, or None."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        try:
            data = self._s.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        p, a = data.get("p"), data.get("a")
        if not isinstance(p, str) or not isinstance(a, str):
            return None
        return p, a


def same_address(digest: str, address: str) -> bool:
    return hmac.compare_digest(digest.encode(), address_digest(address).encode())
