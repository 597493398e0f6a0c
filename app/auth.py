"""Profile tokens (signed, opaque to the client) and recovery codes.

A token carries the profile id ``p``, the profile's session ``g``eneration when it was issued,
its issue time ``t`` (epoch seconds), the device session ``s`` it belongs to (My devices) and a
nonce ``n``. The signature proves the server issued
it; whether it is still good (not expired, generation still current) is decided by the profile
service (``app.profiles.service.ProfileService.session``), which knows the clock and the database.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer

MAX_TOKEN_CHARS = 512


@dataclass(frozen=True)
class Claims:
    profile_id: str
    generation: int
    issued_at: float  # epoch seconds
    session_id: str | None = None  # None: issued before devices had sessions


class TokenSigner:
    """Signs with ``secret_key``; accepts tokens signed with it or any of ``previous_keys``
    (rotation: move the old key to the previous list, set a new one, drop the old one later)."""

    def __init__(self, secret_key: str, previous_keys: Sequence[str] = ()) -> None:
        # itsdangerous takes a list of keys, oldest first: it signs with the last one.
        keys = [k for k in previous_keys if k and k != secret_key] + [secret_key]
        self._s = URLSafeSerializer(keys, salt="emara.profile-token")

    def issue(
        self, profile_id: str, generation: int, issued_at: float, session_id: str | None = None
    ) -> str:
        payload: dict[str, str | int] = {
            "p": profile_id,
            "g": generation,
            "t": int(issued_at),
            "n": secrets.token_urlsafe(6),
        }
        if session_id is not None:
            payload["s"] = session_id
        return self._s.dumps(payload)

    def claims(self, token: str | None) -> Claims | None:
        """What a correctly signed token says, or None (absent, too long, forged, malformed, or
        without an issue time: such a token could never expire, so it is not accepted)."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        try:
            data = self._s.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("p"), str):
            return None
        generation = data.get("g", 0)
        issued_at = data.get("t")
        session_id = data.get("s")
        if type(generation) is not int or type(issued_at) is not int:
            return None
        if session_id is not None and not isinstance(session_id, str):
            return None
        return Claims(data["p"], generation, float(issued_at), session_id)


def new_recovery_code() -> str:
    raw = secrets.token_hex(8).upper()
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def hash_recovery_code(code: str) -> str:
    normalised = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(normalised.encode()).hexdigest()


# A device code is read off one screen and typed on another: 8 characters of an alphabet without
# look-alikes (no 0/O, 1/I/L), shown as XXXX-XXXX: 31^8 ≈ 8.5e11, guessed only under the limit.
DEVICE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def new_device_code() -> str:
    raw = "".join(secrets.choice(DEVICE_ALPHABET) for _ in range(8))
    return raw[:4] + "-" + raw[4:]


def hash_device_code(code: str) -> str:
    normalised = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(b"device:" + normalised.encode()).hexdigest()
