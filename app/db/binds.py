"""Parameters as SQLAlchemy would bind them, for SQL run on the driver's connection.

The thread that writes moves on SQLite (app/tables/writer.py) sends its statements to the
driver itself (app/tables/batch.py). Their parameters go through the bind processors of the
Core statement they stand for, with the engine's dialect (its JSON serializer, its forms of a
datetime and of an enum), so a row written there reads back as one written through Core or the
ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Dialect, Executable
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


class Binds:
    """The bind processors of a Core statement's parameters, by name."""

    def __init__(
        self, statement: Executable, dialect: Dialect, columns: Sequence[str] | None = None
    ) -> None:
        """``columns``: the columns an INSERT without values sets (its binds take their names)."""
        assert isinstance(statement, ClauseElement)
        compiled = cast(
            SQLCompiler,
            statement.compile(dialect=dialect, column_keys=None if columns is None else [*columns]),
        )
        self._process: dict[str, Callable[[Any], Any] | None] = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect)
            for name, bind in compiled.binds.items()
        }

    def one(self, name: str, value: Any) -> Any:
        """``value`` as the parameter ``name`` is bound."""
        process = self._process[name]
        return value if process is None else process(value)

    def row(self, values: Mapping[str, Any], names: Sequence[str]) -> list[Any]:
        """The parameters ``names`` of ``values``, bound, in that order."""
        return [self.one(name, values[name]) for name in names]
