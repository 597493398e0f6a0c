"""The lock files hold every pin of pyproject.toml, at the same version: `make run` and
`make test` install from the locks, so a pin added without `make lock` would never be installed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pins(requirements: list[str]) -> dict[str, str]:
    out = {}
    for req in requirements:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==([^;\s]+)", req.strip())
        assert m, f"pyproject.toml pins exactly: {req!r}"
        out[m.group(1).lower().replace("_", "-")] = m.group(2)
    return out


def _locked(path: Path) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", path.read_text(), flags=re.M)
    return {name.lower().replace("_", "-"): version for name, version in found}


def test_locks_hold_every_pin_of_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = _pins(project["dependencies"])
    dev = _pins(project["optional-dependencies"]["dev"])
    app_lock = _locked(ROOT / "requirements" / "app.lock")
    dev_lock = _locked(ROOT / "requirements" / "dev.lock")
    assert {n: app_lock.get(n) for n in runtime} == runtime, "run `make lock`"
    assert {n: dev_lock.get(n) for n in runtime | dev} == runtime | dev, "run `make lock`"
    tools = {"pytest", "hypothesis", "ruff", "mypy", "playwright", "schemathesis"}
    assert not tools & set(app_lock), "test tools stay out of app.lock"
