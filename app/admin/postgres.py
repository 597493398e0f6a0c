"""Postgres backups with ``pg_dump`` (custom format) and their restore with ``pg_restore``.

``pg_dump`` reads one snapshot (a repeatable-read transaction) while the server keeps writing.
The connection's password goes to the tools in their environment (``PGPASSWORD``), never on a
command line another user could list. The dump is written beside its destination and renamed
into place once ``pg_dump`` succeeded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import psycopg
from sqlalchemy.engine import URL

from app.admin.errors import AdminError, InUse, NotABackup, ToolFailed
from app.admin.files import written

MAGIC = b"PGDMP"

# Called once pg_dump runs (tests make moves while it does).
Hook = Callable[[], None]


def _env(url: URL) -> dict[str, str]:
    env = dict(os.environ)
    for key, value in (
        ("PGHOST", url.host),
        ("PGPORT", url.port),
        ("PGUSER", url.username),
        ("PGPASSWORD", url.password),
        ("PGDATABASE", url.database),
    ):
        if value is not None and value != "":
            env[key] = str(value)
    return env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise ToolFailed(
            f"{name} not found on PATH: install the PostgreSQL client tools "
            "(the same major version as the server, or newer)"
        )
    return found


def _failed(name: str, result: subprocess.CompletedProcess[str] | None, err: str) -> ToolFailed:
    status = "" if result is None else f" (exit status {result.returncode})"
    lines = [line for line in err.strip().splitlines() if line.strip()][-8:]
    return ToolFailed(f"{name} failed{status}:\n" + "\n".join(lines))


def backup(url: URL, dest: Path, running: Hook | None = None) -> None:
    pg_dump = _tool("pg_dump")
    with written(dest) as tmp:
        cmd = [pg_dump, "--format=custom", "--no-owner", "--no-privileges", f"--file={tmp}"]
        proc = subprocess.Popen(
            cmd, env=_env(url), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        try:
            if running is not None:
                running()
            _, err = proc.communicate()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        if proc.returncode != 0:
            raise _failed("pg_dump", subprocess.CompletedProcess(cmd, proc.returncode), err)
        check(tmp)


def check(path: Path) -> None:
    try:
        with path.open("rb") as f:
            head = f.read(len(MAGIC))
    except OSError as exc:
        raise NotABackup(f"cannot read {path}: {exc.strerror}") from None
    if head != MAGIC:
        raise NotABackup(f"{path} is not a pg_dump backup in custom format")
    listed = subprocess.run(
        [_tool("pg_restore"), "--list", str(path)], capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        raise NotABackup(f"{path} cannot be read by pg_restore: {listed.stderr.strip()}")
    if "alembic_version" not in listed.stdout:
        raise NotABackup(f"{path} holds no Emara database (no schema version)")


def _others(url: URL) -> int:
    """Connections to the database other than this one (a server's pool)."""
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        with psycopg.connect(dsn, connect_timeout=10) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
    except psycopg.Error as exc:
        raise AdminError(f"cannot reach the database: {exc}".strip()) from None
    return int(row[0]) if row else 0


def restore(backup_file: Path, url: URL, force: bool = False) -> None:
    """Replace the database's objects with the backup's, in one transaction. Refused while
    other connections use the database unless ``force``."""
    check(backup_file)
    if not force:
        others = _others(url)
        if others:
            raise InUse(
                f"the database is in use ({others} other connection(s)): stop the servers "
                "first (or pass --force and restart them right after)"
            )
    cmd = [
        _tool("pg_restore"),
        "--clean",
        "--if-exists",
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        f"--dbname={url.database}",
        str(backup_file),
    ]
    result = subprocess.run(cmd, env=_env(url), capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise _failed("pg_restore", result, result.stderr)
