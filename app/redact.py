"""Credentials never reach the log: a filter on every log handler hides bearer tokens, cookies and
token query parameters (uvicorn and websockets print request headers at debug level)."""

from __future__ import annotations

import logging
import re

_PATTERNS = [
    (re.compile(r"(?i)\b(authorization:\s*)(\S+\s+)?\S+"), r"\1[redacted]"),
    (re.compile(r"(?i)\b((?:set-)?cookie:\s*).*"), r"\1[redacted]"),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]+"), r"\1[redacted]"),
    (re.compile(r"(?i)([?&](?:token|invite)=)[^&\s\"']+"), r"\1[redacted]"),
]
LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "websockets")


def redact(text: str) -> str:
    for pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
    return text


class RedactCredentials(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        # Redact the format string and each string argument separately: formatters such as
        # uvicorn's access formatter read the arguments by position.
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def install() -> None:
    """Add the filter to every handler of the usual loggers (idempotent)."""
    for name in LOGGERS:
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, RedactCredentials) for f in handler.filters):
                handler.addFilter(RedactCredentials())
