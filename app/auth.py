"""Profile tokens (signed, opaque to the client) and recovery codes."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from itsdangerous import BadSignature, URLSafeSerializer


class TokenSigner:
    """Signs with ``secret_key``; accepts tokens signed with it or any of ``previous_keys``
    (rotation: move the old key to the previous list, set a new one, drop the old one later)."""

    def __init__(self, secret_key: str, previous_keys: Sequence[str] = ()) -> None:
        # itsdangerous takes a list of keys, oldest first: it signs with the last one.
        keys = [k for k in previous_keys if k and k != secret_key] + [secret_key]
        self._s = URLSafeSerializer(keys, salt="emara.profile-token")

    def issue(self, profile_id: str) -> str:
        return self._s.dumps({"p": profile_id, "n": secrets.token_urlsafe(6)})

    def profile_id(self, token: str | None) -> str | None:
        if not token or len(token) > 512:
            return None
        try:
            data = self._s.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("p"), str):
            return None
        profile_id: str = data["p"]
        return profile_id


def new_recovery_code() -> str:
    raw = secrets.token_hex(8).upper()
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def hash_recovery_code(code: str) -> str:
    normalised = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(normalised.encode()).hexdigest()
