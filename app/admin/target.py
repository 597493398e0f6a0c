"""Which database a command works on: the server's own (its settings), as a typed target."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from app.admin.errors import AdminError
from app.config import Settings


class Kind(StrEnum):
    SQLITE = "sqlite"
    POSTGRES = "postgres"


@dataclass(frozen=True)
class Target:
    kind: Kind
    url: URL
    sqlite_path: Path | None  # the database file (SQLite only)

    @property
    def shown(self) -> str:
        """The database as said to the operator: never its password."""
        if self.sqlite_path is not None:
            return str(self.sqlite_path)
        return self.url.render_as_string(hide_password=True)


def target_of(database_url: str) -> Target:
    url = make_url(database_url)
    if url.drivername.startswith("sqlite"):
        name = url.database or ""
        if not name or name == ":memory:" or name.startswith("file:"):
            raise AdminError(f"not a SQLite database file: {name or '(none)'}")
        return Target(Kind.SQLITE, url, Path(name).resolve())
    if url.drivername.startswith("postgresql"):
        return Target(Kind.POSTGRES, url, None)
    raise AdminError(f"unsupported database: {url.drivername}")


def server_target(settings: Settings | None = None) -> Target:
    """The database the server with these settings (default: the environment's) uses."""
    return target_of((settings or Settings()).effective_database_url)
