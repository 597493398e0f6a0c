"""python -m app.admin: the operator's tools."""

from __future__ import annotations

import typer

from app.admin import profiles, tables

app = typer.Typer(help="Emara operator's tools.", no_args_is_help=True)
app.add_typer(profiles.app, name="profiles")
app.add_typer(tables.app, name="tables")

if __name__ == "__main__":
    app()
