"""The rules engine imports only the standard library and itself, and keeps no global RNG."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "app" / "rules"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_stdlib_only() -> None:
    files = sorted(RULES.rglob("*.py"))
    assert files
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    for path in files:
        for module in imported_modules(path):
            assert module in allowed, f"{path.name} imports {module}"


def test_no_clock_or_global_random() -> None:
    for path in sorted(RULES.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name == "simulate.py":
            continue
        assert "import time" not in text and "datetime" not in text, path.name
        assert "random.random(" not in text and "random.shuffle(" not in text, path.name
        assert "random.seed(" not in text and "random.choice(" not in text, path.name


def test_components_copy_matches_shared_sheet() -> None:
    import json

    # The rules sheet beside the project (../shared/), when the checkout has it there.
    shared = RULES.parents[2] / "shared" / "rules" / "components.json"
    ours = json.loads((RULES / "data" / "components.json").read_text(encoding="utf-8"))
    if shared.exists():
        theirs = json.loads(shared.read_text(encoding="utf-8"))
        assert {k: v for k, v in ours.items() if k != "effects"} == theirs
    assert "effects" in ours
