"""What every request passes before any route runs: the body limit, the cross-site guard and
the NUL guard (in this order, the body limit innermost)."""

from __future__ import annotations

from fastapi import FastAPI

from app.config import Settings
from app.web.body_limit import BodyLimit
from app.web.nul import NulGuard
from app.web.origin import CrossSiteGuard


def install_guards(app: FastAPI, settings: Settings) -> None:
    # A game record is larger than any other body (docs/records.md).
    larger = {"/api/records": settings.max_record_bytes}
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, larger=larger)
    # A state-changing request another site or origin sent is refused before any route runs.
    app.add_middleware(
        CrossSiteGuard, allowed_origins=settings.allowed_origins, cookie_name=settings.cookie_name
    )
    # A NUL in a path or query string is refused before any route runs (app/web/nul.py).
    app.add_middleware(NulGuard)
