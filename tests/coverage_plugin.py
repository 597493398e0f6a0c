"""``make coverage``: every test process measures app/ (lines and branches) with coverage.py.

Loaded with ``-p tests.coverage_plugin``, before the suite's conftests import anything of app/,
in the main process and in each xdist worker; each saves a data file of its own, which
``coverage combine`` joins. Threads started during a test (servers in threads) are measured;
servers in processes of their own are not. Settings: ``[tool.coverage]`` in pyproject.toml.
"""

from __future__ import annotations

import coverage
import pytest

MEASURE = coverage.Coverage(data_suffix=True)
MEASURE.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    MEASURE.stop()
    MEASURE.save()
