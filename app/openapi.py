"""The HTTP API's OpenAPI document, as committed in ``docs/openapi.json``.

``python -m app.openapi > docs/openapi.json`` writes it; a test fails when the committed copy
differs from what the application declares, so the document never goes stale.
"""

from __future__ import annotations

import json
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

from app.config import Settings


def document() -> dict[str, Any]:
    """The OpenAPI document of an application built with throw-away settings."""
    from app.main import create_app

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            data_dir=Path(tmp),
            database_url=f"sqlite:///{tmp}/openapi.db",
            secret_key=secrets.token_urlsafe(32),  # signs nothing: the document only
        )
        return create_app(settings).openapi()


def render() -> str:
    return json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
