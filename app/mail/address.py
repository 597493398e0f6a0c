"""E-mail addresses as people type them, judged strictly: exactly one plain address (a dot-atom
local part at a domain name), no control characters (a CR or LF would start a new mail header),
no display names, comments, quotes, IP literals or lists. Stored lower-case, the domain in its
ASCII (IDNA) form."""

from __future__ import annotations

import re

from app.errors import AppError

MAX_ADDRESS = 254
MAX_LOCAL = 64
MAX_LABEL = 63
LOCAL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")
LIST_SIGNS = frozenset(",;")
NOT_PLAIN = frozenset('<>"()[]\\: \t')


class BadEmailAddress(AppError):
    """``reason``: control_characters | too_long | several_addresses | malformed."""

    status = 422
    code = "bad_email_address"


def _refuse(reason: str, message: str) -> BadEmailAddress:
    return BadEmailAddress(message, reason=reason)


def normalise(raw: str) -> str:
    """The address to store and send to, or BadEmailAddress saying why not."""
    if any(ord(ch) < 32 or ord(ch) == 127 or ch in "\u2028\u2029\x85" for ch in raw):
        raise _refuse("control_characters", "an e-mail address holds no control characters")
    text = raw.strip()
    if len(text) > MAX_ADDRESS:
        raise _refuse("too_long", f"an e-mail address has at most {MAX_ADDRESS} characters")
    if text.count("@") > 1 or any(ch in LIST_SIGNS for ch in text) or " " in text:
        raise _refuse("several_addresses", "give one e-mail address")
    if not text.isprintable() or any(ch in NOT_PLAIN for ch in text) or text.count("@") != 1:
        raise _refuse("malformed", "this is not a plain e-mail address (name@example.org)")
    local, _, domain = text.rpartition("@")
    if not 0 < len(local) <= MAX_LOCAL or not LOCAL.match(local) or not local.isascii():
        raise _refuse("malformed", "the part before the @ is not a plain mailbox name")
    try:
        domain = domain.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise _refuse("malformed", "the part after the @ is not a domain name") from None
    labels = domain.split(".")
    if (
        len(labels) < 2
        or len(domain) > 253
        or not all(0 < len(x) <= MAX_LABEL and LABEL.match(x) for x in labels)
        or labels[-1].isdigit()
    ):
        raise _refuse("malformed", "the part after the @ is not a domain name")
    address = f"{local.lower()}@{domain}"
    if len(address) > MAX_ADDRESS:
        raise _refuse("too_long", f"an e-mail address has at most {MAX_ADDRESS} characters")
    return address
