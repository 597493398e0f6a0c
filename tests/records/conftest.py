from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "records.example.json"


@pytest.fixture
def example() -> dict[str, Any]:
    """The committed example record: a real three-player game (docs/records.example.json)."""
    return dict(json.loads(EXAMPLE.read_text(encoding="utf-8")))
