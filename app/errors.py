"""One error family: a stable ``code``, an HTTP status and a message. One handler renders them."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException as StarletteHTTPException


class AppError(Exception):
    status = 400
    code = "bad_request"
    # Extra response headers (e.g. Retry-After).
    headers: dict[str, str] | None = None

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


class NameSeated(AppError):
    """Someone of the joiner's name sits at the table: a join says first that it is another
    person (``another_person``), so that nobody takes a second seat as themselves."""

    status = 409
    code = "name_seated"


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


class BadDeviceCode(AppError):
    status = 404
    code = "bad_device_code"


class RecentProofRequired(AppError):
    """Adding or removing a passkey or the e-mail address needs a recent proof on this device
    (a sign-in, or a re-entered recovery code or passkey, within ``recent_proof_seconds``):
    confirm it's you, then send the request again. Nothing was changed."""

    status = 403
    code = "recent_proof_required"


class Suspended(AppError):
    """An operator suspended this profile: it cannot open tables or invite until the
    suspension is lifted. Nothing was changed."""

    status = 403
    code = "suspended"


class Unavailable(AppError):
    """The database could not be reached or dropped the connection; nothing was changed unless
    the commit went through, and retrying with the same ``move_id`` is safe either way."""

    status = 503
    code = "unavailable"


class BodyTooLarge(AppError):
    status = 413
    code = "body_too_large"


class RateLimited(AppError):
    """Too many requests: ``retry_after`` (also the ``Retry-After`` header) says how many
    seconds until the window that refused it has passed."""

    status = 429
    code = "rate_limited"

    def __init__(self, message: str = "", retry_after: int | None = None, **extra: Any) -> None:
        if retry_after is not None:
            extra["retry_after"] = retry_after
            self.headers = {"Retry-After": str(retry_after)}
        super().__init__(message, **extra)


class ErrorDetail(BaseModel):
    """One field a 422 ``malformed`` refused: where it is in the request, and why."""

    loc: list[str | int]
    msg: str


class ErrorBody(BaseModel):
    """``code`` is stable (clients switch on it), ``message`` is for people. Some codes add
    fields: ``details`` (malformed), ``limit`` (body_too_large), ``retry_after`` (rate_limited)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str
    details: list[ErrorDetail] | None = None


class ErrorEnvelope(BaseModel):
    """Every error response of the API, whatever its status."""

    error: ErrorBody


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(_: Request, exc: AppError) -> JSONResponse:
        return JSONResponse({"error": exc.to_dict()}, status_code=exc.status, headers=exc.headers)

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

    install_openapi(app)


ENVELOPE_REF = {"$ref": "#/components/schemas/ErrorEnvelope"}


def _error_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ENVELOPE_REF}}}


def install_openapi(app: FastAPI) -> None:
    """The OpenAPI document describes errors as they are: every 422 is the ``ErrorEnvelope``
    (not FastAPI's ``HTTPValidationError``), and a rate-limited route lists its 429."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        envelope = ErrorEnvelope.model_json_schema(ref_template="#/components/schemas/{model}")
        components.update(envelope.pop("$defs", {}))
        components["ErrorEnvelope"] = envelope
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        limited = _rate_limited_operations(app)
        for path, item in schema.get("paths", {}).items():
            for method, operation in item.items():
                responses = operation.setdefault("responses", {})
                if "422" in responses:
                    responses["422"] = _error_response("Malformed request (`malformed`)")
                if (method.upper(), path) in limited:
                    responses["429"] = _error_response("Too many requests (`rate_limited`)")
                    responses["429"]["headers"] = {
                        "Retry-After": {
                            "description": "Seconds until the request may be tried again",
                            "schema": {"type": "integer"},
                        }
                    }
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _rate_limited_operations(app: FastAPI) -> set[tuple[str, str]]:
    """(METHOD, path) of every route with a rate-limit dependency (``app.ratelimit.limit``)."""
    found: set[tuple[str, str]] = set()
    for route in iter_route_contexts(app.routes):
        dependant = getattr(route, "dependant", None)
        if dependant is None:
            continue
        stack = list(dependant.dependencies)
        while stack:
            dep = stack.pop()
            if getattr(dep.call, "rate_limit_name", None):
                for method in getattr(route, "methods", None) or ():
                    found.add((method, getattr(route, "path_format", "")))
            stack.extend(dep.dependencies)
    return found
