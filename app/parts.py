"""What the features provide, kept on ``app.state``: one registry of named parts, read by type.

``create_app`` puts every part a feature declares (app/plug.py ``Feature.parts``) here under its
name. An endpoint never looks a part up by name: it names the part's class in a typed dependency,

    Service = Annotated[TableService, Depends(provided(TableService))]

and gets the one part of that class (a class two parts share is refused at start). A test swaps a
part by assigning its name (``app.state.clock = ManualClock()``): the dependency reads the name's
current value and checks its class at every use.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from starlette.datastructures import State
from starlette.requests import HTTPConnection

from app.clock import Clock
from app.config import Settings

T = TypeVar("T")


class Parts(State):
    """The application's parts by name (attributes, as on any ``app.state``) and by class."""

    settings: Settings
    clock: Clock
    _kinds: dict[type, str | None]  # name by class; None when two parts share the class

    def __init__(self) -> None:
        super().__init__()
        object.__setattr__(self, "_kinds", {})

    def add(self, name: str, part: object) -> None:
        """Keep ``part`` under ``name``, findable by its class and each of its base classes."""
        if name in self._state:
            raise ValueError(f"two features provide the part {name!r}")
        setattr(self, name, part)
        kinds = self._kinds
        for kind in type(part).__mro__[:-1]:
            kinds[kind] = name if kinds.get(kind, name) == name else None

    def get(self, kind: type[T]) -> T:
        """The one part of class ``kind`` (as its name holds it now)."""
        name = self._kinds.get(kind)
        if name is None:
            raise LookupError(f"no single part of class {kind.__name__}")
        part = self._state[name]
        if not isinstance(part, kind):
            raise TypeError(f"the part {name!r} is a {type(part).__name__}, not {kind.__name__}")
        return part

    @staticmethod
    def of(app: Any) -> Parts:
        """The registry of an application ``create_app`` built."""
        state = app.state
        if not isinstance(state, Parts):
            raise RuntimeError("the application was not built by create_app")
        return state


def provided(kind: type[T]) -> Callable[[HTTPConnection], Coroutine[Any, Any, T]]:
    """A FastAPI dependency giving the part of class ``kind`` (a request's or a socket's)."""

    async def part(conn: HTTPConnection) -> T:
        return Parts.of(conn.app).get(kind)

    part.__name__ = part.__qualname__ = f"provided_{kind.__name__}"
    return part
