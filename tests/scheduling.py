"""How the parallel workers are handed the test modules (``make test``: ``-n 4 --dist loadfile``).

pytest-xdist's own ``loadfile`` reorders the modules by their count of tests, most first, gives
each worker two modules to start with, and a worker its next module while three of its tests are
still to run. For this suite that put the long browser modules (a few tests each, minutes long)
last, and could queue two of them on one worker while another worker ran out of work.

``InOrderFiles`` keeps the order of the collection (``LONGEST_FIRST`` in tests/conftest.py: the
longest modules first) and gives a worker its next module only when its last test waits to be
run (an xdist worker holds its last test until it knows the next one): the longest modules go to
the first free workers, one at a time, and the short ones fill in behind them.
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadFileScheduling


class InOrderFiles(LoadFileScheduling):
    """``--dist loadfile``, in the collection's order, one module ahead at most."""

    def __init__(self, config: Any, log: Any = None) -> None:
        super().__init__(config, log)
        self.config.option.loadscopereorder = False

    def _reschedule(self, node: Any) -> None:
        if node.shutting_down:
            return
        if not self.workqueue:
            node.shutdown()
            return
        # 1: the worker is on its last test, which it runs once it knows what comes next
        if self._pending_of(self.assigned_work[node]) > 1:
            return
        self._assign_work_unit(node)
