"""Log lines as JSON (``EMARA_LOG_FORMAT=json``): one object a line, with the time, level,
logger, message, and the request or socket id it was written for (app/metrics/ids.py).

What a line never holds: a token, cookie or code (every message goes through app/redact.py, and
a request's query string is reduced to its parameter names), an e-mail address, or a client's
IP address unless the operator asks for it (``EMARA_LOG_CLIENT_ADDRESSES``). uvicorn's access
and WebSocket lines are taken apart into fields for that.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import urllib.parse
from datetime import UTC, datetime
from typing import Any

from app import redact
from app.metrics.ids import REQUEST_ID, SOCKET_ID

LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "websockets")
EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
ACCESS = '%s - "%s %s HTTP/%s" %d'
SOCKET_ACCEPTED = '%s - "WebSocket %s" [accepted]'


def path_only(target: str) -> tuple[str, list[str]]:
    """A request target's path and its query's parameter names (their values may be codes)."""
    path, _, query = target.partition("?")
    names = [name for name, _ in urllib.parse.parse_qsl(query, keep_blank_values=True)]
    return path, names


def scrub(text: str) -> str:
    return EMAIL.sub("[address]", redact.redact(text))


class JsonLines(logging.Formatter):
    def __init__(self, client_addresses: bool = False) -> None:
        super().__init__()
        self.client_addresses = client_addresses

    def _fields(self, record: logging.LogRecord) -> dict[str, Any]:
        args = record.args if isinstance(record.args, tuple) else ()
        if record.msg == ACCESS and len(args) == 5:
            client, method, target, http, status = args
            path, query = path_only(str(target))
            out: dict[str, Any] = {
                "msg": "request",
                "method": str(method),
                "path": scrub(path),
                "status": status,
                "http": str(http),
            }
            if query:
                out["query"] = query
        elif record.msg == SOCKET_ACCEPTED and len(args) == 2:
            client, target = args
            path, query = path_only(str(target))
            out = {"msg": "socket accepted", "path": scrub(path)}
            if query:
                out["query"] = query
        else:
            return {"msg": scrub(record.getMessage())}
        if self.client_addresses and client:
            out["client"] = str(client)
        return out

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        line.update(self._fields(record))
        request_id, socket_id = REQUEST_ID.get(), SOCKET_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        if socket_id is not None:
            line["socket_id"] = socket_id
        if record.exc_info:
            line["error"] = scrub(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def install(client_addresses: bool = False) -> None:
    """Every handler of the usual loggers writes JSON lines (the root logger gets one on stderr
    if it has none); the credentials filter stays on each (idempotent)."""
    formatter = JsonLines(client_addresses)
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler(sys.stderr))
    for name in LOGGERS:
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
    redact.install()
