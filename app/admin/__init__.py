"""The operator's command line (``python -m app.admin``): backups and restores of the database,
profiles and tables. Each module of commands is registered on the Typer app in ``__main__.py``,
one line each."""
