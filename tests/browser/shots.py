"""Screenshots for people to look at, taken when asked for.

No test asserts on a picture: the screenshots in test-artifacts/ are there for a person who
checks how a screen looks (`make shots` runs the browser tests with ``EMARA_SCREENSHOTS=1``).
Taking them costs the browser more than most of what the tests assert (a full-page shot of a
long page, 1.3 CPU-s), so a plain `make test` skips them.
"""

from __future__ import annotations

import os
from typing import Any

TAKEN = os.environ.get("EMARA_SCREENSHOTS", "").lower() in ("1", "true", "yes")


def screenshot(target: Any, *, path: Any, **options: Any) -> None:
    """``target.screenshot(path=path, **options)`` (a page or a locator), if shots are asked for."""
    if TAKEN:
        target.screenshot(path=str(path), **options)
