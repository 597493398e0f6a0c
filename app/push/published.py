"""Web Push as other features use it (docs/architecture.md, "Data"): the subscriptions' store,
whose targets an invitation is pushed to."""

from __future__ import annotations

from app.push.store import PushStore

__all__ = ["PushStore"]
