"""Worker threads: the few the process has (``EMARA_WORKER_THREADS``) go to blocking work only.

Every thread that runs Python takes the GIL from the event loop that judges and writes the
moves (docs/operations.md "Few worker threads"), so a request takes no thread to look up a
service, and the server runs with the number its settings name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from anyio import to_thread
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute, iter_route_contexts
from fastapi.testclient import TestClient

from tests.conftest import make_settings, wipe


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


def test_the_server_has_the_worker_threads_its_settings_name(
    database_url: str, tmp_path: Path
) -> None:
    from app.main import create_app

    wipe(database_url)
    app = create_app(make_settings(database_url, tmp_path, worker_threads=3))
    try:
        with TestClient(app) as client:

            async def tokens() -> float:
                return to_thread.current_default_thread_limiter().total_tokens

            assert client.portal is not None
            assert client.portal.call(tokens) == 3
    finally:
        app.state.db.dispose()
