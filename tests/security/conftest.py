"""A migrated embedded database for the in-process security tests."""

from __future__ import annotations

import pytest

from app.db.migrate import upgrade


@pytest.fixture
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('security') / 'emara.db'}"
    upgrade(url)
    return url
