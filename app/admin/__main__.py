"""``python -m app.admin``: the operator's commands. Each module of commands is one line here."""

from __future__ import annotations

import typer

from app.admin import backup, profiles, reports, tables

cli = typer.Typer(
    name="app.admin",
    help="Operate an Emara server: backups, profiles, tables, reports (docs/operations.md).",
    no_args_is_help=True,
    add_completion=False,
)
cli.add_typer(backup.app)  # backup PATH, restore PATH
cli.add_typer(profiles.app, name="profiles")  # list, show, suspend, unsuspend, export, delete
cli.add_typer(tables.app, name="tables")  # list, show, close
cli.add_typer(reports.app, name="reports")  # list, show, resolve, dismiss
app = cli  # the same app, by the name the profile and table commands' tests use

if __name__ == "__main__":
    cli()
