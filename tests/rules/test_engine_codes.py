"""docs/engine-codes.md lists every IllegalMoveError code the engine can raise."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def raised_codes() -> set[str]:
    """Codes written as ``IllegalMoveError("code"`` and the codes returned by checkers whose
    result is raised (``return "code"``, as in ``advisors._craftsman_ok``)."""
    codes: set[str] = set()
    for path in (ROOT / "app" / "rules").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'IllegalMoveError\(\s*"(\w+)"', text))
        codes |= set(re.findall(r'^\s+return "([a-z_]+)"$', text, re.MULTILINE))
    return codes


def documented_codes() -> set[str]:
    doc = (ROOT / "docs" / "engine-codes.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `(\w+)` \|", doc, re.MULTILINE))


def test_every_raised_code_is_documented() -> None:
    missing = raised_codes() - documented_codes()
    assert not missing, f"codes missing in docs/engine-codes.md: {sorted(missing)}"


def test_the_doc_lists_no_code_the_engine_never_raises() -> None:
    stale = documented_codes() - raised_codes()
    assert not stale, f"docs/engine-codes.md lists codes nothing raises: {sorted(stale)}"


def test_the_scan_finds_the_codes_of_both_forms() -> None:
    codes = raised_codes()
    assert {"malformed_move", "undo_across_secret", "bad_harvest", "hut_taken"} <= codes
    assert len(codes) >= 40
