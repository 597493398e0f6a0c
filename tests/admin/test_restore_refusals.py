"""What the admin commands refuse, and say: a restore over a database a server has open, a file
that is no backup; the exit statuses and messages an operator reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from app.admin.__main__ import cli
from app.admin.backup import bring_back, take
from app.admin.errors import InUse
from app.admin.target import target_of
from tests.conftest import ROOT, LiveServer

pytestmark = pytest.mark.both_databases


def profiles(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            return int(c.execute(text("SELECT count(*) FROM profile")).scalar_one())
    finally:
        engine.dispose()


def test_a_restore_over_a_database_in_use_is_refused_and_changes_nothing(
    live: LiveServer, database_url: str, tmp_path: Path
) -> None:
    dump = tmp_path / "before.backup"
    take(target_of(database_url), dump)  # no profile yet
    import httpx

    with httpx.Client(base_url=live.http) as c:
        assert c.post("/api/profiles", json={"name": "Ann"}).status_code == 201
    if database_url.startswith("sqlite"):
        # Another process, as an operator runs it (a lock held by this one would not show).
        env = {**os.environ, "EMARA_DATABASE_URL": database_url}
        done = subprocess.run(
            [sys.executable, "-m", "app.admin", "restore", str(dump)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == InUse.status, done.stderr
        assert "in use by a running server" in done.stderr
        assert "--force" in done.stderr
    else:
        with pytest.raises(InUse, match="in use"):
            bring_back(target_of(database_url), dump)
    assert profiles(database_url) == 1  # the database is as it was


def test_the_commands_say_what_they_did_and_what_is_wrong(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A password in the URL (the test server trusts any) is never shown.
    url = database_url.replace("postgres@", "postgres:canary-password@")
    monkeypatch.setenv("EMARA_DATABASE_URL", url)
    runner = CliRunner()
    dump = tmp_path / "ok.backup"
    done = runner.invoke(cli, ["backup", str(dump)])
    assert done.exit_code == 0, done.output
    assert f"to {dump}" in done.output
    assert "canary-password" not in done.output

    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"not a backup at all")
    done = runner.invoke(cli, ["restore", str(junk)])
    assert done.exit_code == 5
    assert "is not a" in done.output and "backup" in done.output

    done = runner.invoke(cli, ["restore", str(tmp_path / "missing.backup")])
    assert done.exit_code == 5
    assert "cannot read" in done.output
    assert "canary-password" not in done.output

    done = runner.invoke(cli, ["backup", str(tmp_path / "no-such-dir" / "x.backup")])
    assert done.exit_code != 0
    assert not (tmp_path / "no-such-dir").exists()
