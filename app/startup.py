"""The app's import: the cycle collector waits until it is over.

Importing ``app.main`` makes a few hundred thousand objects that live as long as the process
(modules, classes, the pydantic schemas, SQLAlchemy's tables, the rules data). The collector's
passes over them meanwhile find no garbage, and cost about a fifth of the import's CPU
(``bench/import_app.py``) — paid by every server start and every process of the test suite. So
the collector is off from the first line of ``app.main`` to its last (``resume``), which moves
what the import made out of the collector's reach (``gc.freeze``, as the lifespan does again at
start-up: app/main.py).
"""

from __future__ import annotations

import gc

_ENABLED = gc.isenabled()
gc.disable()


def resume() -> None:
    """The collector as it was before the import (on, unless the process had turned it off),
    with what the import made out of its reach: turned on over them, its first pass would walk
    every one of them once more."""
    gc.freeze()
    if _ENABLED:
        gc.enable()
