"""The life of a table (``TableStatus``): defined with the database models, which store it
(app/db/table_status.py); the tables feature names it here too."""

from app.db.table_status import TableStatus

__all__ = ["TableStatus"]
