"""The operator's command line (``python -m app.admin``): backups and restores of the database.
Each module of commands is registered on the Typer app in ``__main__.py``, one line each."""
