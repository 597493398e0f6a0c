"""docs/events.md lists exactly the event types the engine emits."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_event_types_documented() -> None:
    emitted: set[str] = set()
    for path in (ROOT / "app" / "rules").glob("*.py"):
        if path.name == "simulate.py":
            continue
        emitted |= set(re.findall(r'"type": "(\w+)"', path.read_text(encoding="utf-8")))
    doc = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(\w+)`", doc, re.MULTILINE))
    assert emitted == documented
