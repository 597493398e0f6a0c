"""The chat's refusals: each a stable code (on a socket the same codes arrive as error frames)."""

from __future__ import annotations

from typing import Any

from app.errors import AppError


class ChatEmpty(AppError):
    status = 422
    code = "chat_empty"


class ChatTooLong(AppError):
    status = 422
    code = "chat_too_long"


class ChatNotAllowed(AppError):
    """A spectator at a table whose host does not let spectators write."""

    status = 403
    code = "chat_not_allowed"


class ChatRateLimited(AppError):
    """Too many messages: ``retry_after`` seconds until one more is accepted."""

    status = 429
    code = "chat_rate_limited"

    def __init__(self, message: str, retry_after: int, **extra: Any) -> None:
        extra["retry_after"] = retry_after
        self.headers = {"Retry-After": str(retry_after)}
        super().__init__(message, **extra)
