"""``python -m app.admin``: the operator's commands. Each module of commands is one line here."""

from __future__ import annotations

import typer

from app.admin import backup

cli = typer.Typer(
    name="app.admin",
    help="Operate an Emara server: backups and restores (docs/operations.md).",
    no_args_is_help=True,
    add_completion=False,
)
cli.add_typer(backup.app)  # backup PATH, restore PATH

if __name__ == "__main__":
    cli()
