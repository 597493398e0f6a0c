"""The app's import (app/startup.py): the cycle collector is off while ``app.main`` is imported,
on again once it is, with what the import made frozen; a process that had turned the collector
off keeps it off."""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator

import pytest

import app.main  # noqa: F401  (this process imported the app the way a server does)
from app import startup


@pytest.fixture
def collector_restored() -> Iterator[None]:
    yield
    gc.enable()
    gc.unfreeze()
    importlib.reload(startup)  # the module's own state as a fresh import leaves it...
    startup.resume()  # ...and the collector on again


def test_the_collector_runs_once_the_app_is_imported() -> None:
    assert gc.isenabled()


def test_the_collector_waits_during_the_import_and_comes_back_with_the_import_frozen(
    collector_restored: None,
) -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    again = importlib.reload(startup)  # what the first line of app.main does
    assert not gc.isenabled()
    again.resume()  # what its last line does
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


def test_a_process_that_turned_the_collector_off_keeps_it_off(collector_restored: None) -> None:
    gc.disable()
    importlib.reload(startup).resume()
    assert not gc.isenabled()
