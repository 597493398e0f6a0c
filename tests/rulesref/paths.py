"""Data paths of the rules page (static/js/rulesdata.js `at`), resolved the same way in Python.

A path is dotted keys and list indexes into components.json; a last segment ``length`` is the
size of a list or object, ``@key`` the key before it (a key printed as a number).
"""

from __future__ import annotations

from typing import Any


def resolve(data: Any, path: str) -> Any:
    parts = path.split(".")
    if parts[-1] == "@key":
        parent = resolve(data, ".".join(parts[:-2])) if len(parts) > 2 else data
        if parts[-2] not in parent:
            raise KeyError(path)
        return parts[-2]
    value = data
    for i, part in enumerate(parts):
        if part == "length" and i == len(parts) - 1 and isinstance(value, (list, dict)):
            return len(value)
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value[part]
        else:
            raise KeyError(path)
    return value


def shown(value: Any, signed: bool) -> str:
    """The text the page shows for ``value`` (``signed``: +2, −1)."""
    if signed and isinstance(value, int) and not isinstance(value, bool) and value != 0:
        return f"+{value}" if value > 0 else f"−{-value}"
    return str(value)
