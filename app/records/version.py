"""The rules-data version a record names: which printed numbers (components.json) it was played
with. A record replays exactly only with the same numbers, so an import checks it first."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources


def rules_version_of(text: str) -> str:
    """``sha256:`` and the first 16 hex digits of the SHA-256 of the data in canonical JSON
    (keys sorted, no spaces, UTF-8): layout and key order do not change it, a number does."""
    canonical = json.dumps(
        json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


@cache
def rules_version() -> str:
    """The version of the engine's own copy, app/rules/data/components.json."""
    text = resources.files("app.rules.data").joinpath("components.json").read_text("utf-8")
    return rules_version_of(text)
