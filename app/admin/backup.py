"""``backup PATH`` and ``restore PATH``: the server's database (its settings: EMARA_DATABASE_URL,
or the SQLite file in EMARA_DATA_DIR) to a file and back (docs/operations.md "Backups")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from app.admin import postgres, sqlite
from app.admin.errors import AdminError
from app.admin.target import Kind, Target, server_target

app = typer.Typer()


def take(target: Target, dest: Path, during: sqlite.Hook | None = None) -> None:
    """A consistent backup of ``target`` in ``dest``, while servers keep serving."""
    if target.kind is Kind.SQLITE:
        assert target.sqlite_path is not None
        sqlite.backup(target.sqlite_path, dest, during)
    else:
        postgres.backup(target.url, dest, during)


def bring_back(target: Target, source: Path, force: bool = False) -> None:
    """``source`` (a backup of the same kind of database) restored into ``target``."""
    if target.kind is Kind.SQLITE:
        assert target.sqlite_path is not None
        sqlite.restore(source, target.sqlite_path, force)
    else:
        postgres.restore(source, target.url, force)


def _fail(exc: AdminError) -> typer.Exit:
    typer.echo(f"error: {exc.message}", err=True)
    return typer.Exit(exc.status)


@app.command()
def backup(
    path: Annotated[Path, typer.Argument(help="The backup file to write (replaced if it exists).")],
) -> None:
    """Write a consistent backup of the database while the server runs.

    SQLite: the online backup API. Postgres: pg_dump, custom format."""
    try:
        target = server_target()
        take(target, path)
    except AdminError as exc:
        raise _fail(exc) from None
    size = path.stat().st_size
    typer.echo(f"backed up {target.shown} to {path.resolve()} ({size} bytes)")


@app.command()
def restore(
    path: Annotated[Path, typer.Argument(help="A backup written by `backup`.")],
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Overwrite even while a server uses the database (restart it after)."
        ),
    ] = False,
) -> None:
    """Bring a backup back into the database; refused while a server uses it.

    SQLite: the file replaced. Postgres: pg_restore, in one transaction."""
    try:
        target = server_target()
        bring_back(target, path, force)
    except AdminError as exc:
        raise _fail(exc) from None
    typer.echo(f"restored {path.resolve()} into {target.shown}")
