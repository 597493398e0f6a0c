"""The refusals of blocking (each a stable code, docs/protocol.md)."""

from __future__ import annotations

from app.errors import AppError


class CannotBlockSelf(AppError):
    status = 422
    code = "cannot_block_self"
