"""The operator's command line, run in process (Typer's CliRunner) on the test's database."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from app.admin.__main__ import app as admin_app

Admin = Callable[..., Any]


@pytest.fixture
def admin(database_url: str, client: Any) -> Admin:
    """``admin("profiles", "show", id)``: the command's result (``.json``: its parsed stdout
    when ``--json`` was given). ``client`` first: the database is wiped and migrated."""
    runner = CliRunner()

    def run(*args: str, ok: bool = True, input: str | None = None) -> Any:
        result = runner.invoke(
            admin_app, list(args), env={"EMARA_DATABASE_URL": database_url}, input=input
        )
        if ok:
            assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
        result.json = json.loads(result.stdout) if "--json" in args else None
        return result

    return run
