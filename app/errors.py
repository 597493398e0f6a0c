"""One error family: a stable ``code``, an HTTP status and a message. One handler renders them."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class AppError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str = "", **extra: Any) -> None:
        super().__init__(message or self.code)
        self.message = message or self.code.replace("_", " ")
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class Unauthenticated(AppError):
    status = 401
    code = "unauthenticated"


class NotFound(AppError):
    status = 404
    code = "not_found"


class Forbidden(AppError):
    status = 403
    code = "forbidden"


class NotYourSeat(AppError):
    status = 403
    code = "not_your_seat"


class NotHost(AppError):
    status = 403
    code = "not_host"


class BadInviteCode(AppError):
    status = 404
    code = "not_found"


class TableFull(AppError):
    status = 409
    code = "table_full"


class WrongStatus(AppError):
    status = 409
    code = "wrong_status"


class SeatsNotFilled(AppError):
    status = 409
    code = "seats_not_filled"


class IllegalMove(AppError):
    status = 409
    code = "illegal_move"


class BotPlaysSeat(AppError):
    """A person's move for a seat handed to a bot: the bot plays it until the person reclaims it."""

    status = 409
    code = "bot_plays_seat"


class NoBotSeat(AppError):
    """A server-side bot's move for a seat its player has taken back."""

    status = 409
    code = "not_a_bot"


class StaleVersion(AppError):
    status = 409
    code = "stale_version"


class Malformed(AppError):
    status = 422
    code = "malformed"


class BadRecoveryCode(AppError):
    status = 404
    code = "bad_recovery_code"


class Unavailable(AppError):
    """The database could not be reached or dropped the connection; nothing was changed unless
    the commit went through, and retrying with the same ``move_id`` is safe either way."""

    status = 503
    code = "unavailable"


class BodyTooLarge(AppError):
    status = 413
    code = "body_too_large"


class RateLimited(AppError):
    status = 429
    code = "rate_limited"


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(_: Request, exc: AppError) -> JSONResponse:
        return JSONResponse({"error": exc.to_dict()}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in exc.errors()
        ]
        body = {"error": {"code": "malformed", "message": "malformed request", "details": details}}
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        body = {"error": {"code": code, "message": str(exc.detail)}}
        return JSONResponse(body, status_code=exc.status_code)
