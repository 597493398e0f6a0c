"""One app per test worker, reset between tests (the ``app`` and ``client`` fixtures).

Building an app costs more than most tests that use it: FastAPI works out each route's
dependencies for a new app on its first requests (about 0.1 s of CPU for this one), and its
start-up starts the background loops. So each worker builds the app once per database, starts it
once (one ``TestClient``: one event loop, one lifespan), and between tests puts it back as it was
just after its start:

- the database's rows are wiped;
- every object of the app reachable from ``app.state`` (three steps deep, the app's own classes
  and the rate-limit storage) gets back the attributes it had — a test that replaced a hook, a
  seed source or a setting leaves nothing behind; a thread the app started and that still runs
  (the move writer's) stays — and its containers (the caches of tables,
  clocks and replays, the rate-limit counters, the hub's listeners) get back their contents;
- the client's cookies and headers are cleared.

The reset runs on the app's event loop, between tests, so no background loop sees it half done.
A test that needs an app of its own (other settings, an injected clock) builds it with
``create_app`` as before.
"""

from __future__ import annotations

import collections
import threading
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient

CONTAINERS = (dict, list, set, collections.deque)
OWN_MODULES = ("app.", "limits.")
DEPTH = 3


def _own(obj: Any) -> bool:
    module = type(obj).__module__
    return hasattr(obj, "__dict__") and module.startswith(OWN_MODULES)


def _running(value: Any) -> bool:
    """A thread the app started and that still runs: it stays the app's. Put back to the None it
    had at start, it would run on unseen (the move writer's thread waits on its queue for good),
    and the stop at the end would hand its one None to such a thread and wait 30 s for its own."""
    return isinstance(value, threading.Thread) and value.is_alive()


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, set):
        return set(value)
    return list(value)


def _put_back(container: Any, saved: Any) -> None:
    if isinstance(container, dict):
        if container != saved or list(container) != list(saved):
            container.clear()
            container.update(saved)
    elif isinstance(container, set):
        if container != saved:
            container.clear()
            container.update(saved)
    elif list(container) != saved:
        container.clear()
        container.extend(saved)


@dataclass
class StateSnapshot:
    """The attributes and container contents of the app's objects at one moment."""

    attributes: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    contents: list[tuple[Any, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, app: Any) -> StateSnapshot:
        snap = cls()
        seen: set[int] = set()
        layer: list[Any] = [app.state]
        for _ in range(DEPTH + 1):
            following: list[Any] = []
            for obj in layer:
                if id(obj) in seen:
                    continue
                seen.add(id(obj))
                values = vars(obj)
                snap.attributes.append((obj, dict(values)))
                for value in values.values():
                    if isinstance(value, CONTAINERS) and id(value) not in seen:
                        seen.add(id(value))
                        snap.contents.append((value, _copy(value)))
                        inner = value.values() if isinstance(value, dict) else value
                        following.extend(v for v in list(inner) if _own(v))
                    elif _own(value):
                        following.append(value)
            layer = following
        return snap

    def restore(self) -> None:
        for obj, saved in self.attributes:
            values = vars(obj)
            for name in [n for n in values if n not in saved and not _running(values[n])]:
                del values[name]
            for name, value in saved.items():
                now = values.get(name, saved)
                if now is not value and not _running(now):
                    values[name] = value
        for container, saved in self.contents:
            _put_back(container, saved)


class SharedApp:
    """The worker's app for one database, started once, and its state at start."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.client = TestClient(app)
        self.client.__enter__()  # the lifespan: background loops, for the whole session
        self.headers = dict(self.client.headers)
        self.snapshot: StateSnapshot = self.client.portal.call(self._take)  # type: ignore[union-attr]

    async def _take(self) -> StateSnapshot:
        return StateSnapshot.of(self.app)

    async def _restore(self) -> None:
        self.snapshot.restore()

    def reset(self) -> None:
        """Back to the state just after start (the database is wiped by the caller)."""
        self.client.portal.call(self._restore)  # type: ignore[union-attr]
        self.client.cookies.clear()
        self.client.headers.clear()
        self.client.headers.update(self.headers)

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.app.state.db.dispose()
