"""Passkeys' refusals: each a stable code. None carries a challenge or a credential."""

from __future__ import annotations

from app.errors import AppError


class BadPasskeyChallenge(AppError):
    """The challenge the answer signed is unknown, already used, expired, or another
    profile's (or another ceremony's): ask for new options."""

    status = 400
    code = "bad_passkey_challenge"


class UnknownPasskey(AppError):
    """No passkey of this server has that credential id (removed, or never registered)."""

    status = 404
    code = "unknown_passkey"


class PasskeyRefused(AppError):
    """The authenticator's answer does not check out (origin, relying party, signature, sign
    count, user presence, or a malformed answer)."""

    status = 400
    code = "passkey_refused"


class PasskeyTaken(AppError):
    """The credential is registered already."""

    status = 409
    code = "passkey_taken"


class PasskeysNeedHostName(AppError):
    """The site is reached by an IP address (or ``EMARA_PUBLIC_URL`` names one): browsers make
    and use passkeys for a host name only. ``open`` is the same page on ``localhost`` when the
    address is a loopback one (this machine), else absent."""

    status = 400
    code = "passkeys_need_host_name"
