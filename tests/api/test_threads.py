"""Worker threads go to blocking work only: a request takes none to look up a service.

FastAPI runs a dependency that is a plain function in a worker thread; every thread that runs
Python takes the GIL from the event loop that judges and writes the moves.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute, iter_route_contexts


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _calls(sub)


def _awaited(call: Callable[..., Any]) -> bool:
    """FastAPI awaits it on the event loop (else it runs it in a worker thread)."""
    target = call if inspect.isfunction(call) else getattr(call, "__call__", call)  # noqa: B004
    return inspect.iscoroutinefunction(target) or inspect.isasyncgenfunction(target)


def test_no_dependency_of_a_route_takes_a_worker_thread(app: Any) -> None:
    # (no router is included with dependencies of its own: a route's dependant holds them all)
    routes = [
        c.original_route
        for c in iter_route_contexts(app.routes)
        if isinstance(c.original_route, APIRoute | APIWebSocketRoute)
    ]
    assert len(routes) > 50
    threaded = sorted(
        {
            f"{call.__module__}.{getattr(call, '__qualname__', type(call).__qualname__)}"
            for route in routes
            for call in _calls(route.dependant)
            if not _awaited(call)
        }
    )
    assert threaded == []
