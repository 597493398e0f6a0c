"""Every frame of the table socket, in both directions, as pydantic models.

Inbound text is checked in this order, before anything is done (the socket's rate limit has been
charged before): size, JSON (the C parser, linear in the text), then one walk of the parsed value
for nesting depth and integer range (every value looked at once), then the models: no step costs
more than linear work on any text. What fails is a ``Refusal``: the error to send, with the
frame's ``ref`` when it had a usable one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, cast

import orjson
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from app.engine_types import EngineEvent
from app.strict import NUL, NUL_MESSAGE

SAFE_INT = 2**53 - 1  # the largest integer every JSON reader (a browser's too) keeps exactly
MAX_VERSION = 2**31 - 1

Ref = (
    Annotated[str, StringConstraints(max_length=64)]
    | Annotated[int, Field(strict=True, ge=-SAFE_INT, le=SAFE_INT)]
)
Version = Annotated[int, Field(strict=True, ge=0, le=MAX_VERSION)]
Token = Annotated[str, StringConstraints(max_length=1024)]


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------------------- client → server
class Hello(Frame):
    """Ask for the lobby and the game from ``since`` (None: a full snapshot). ``deltas``: after
    the snapshot, send each change as a ``delta`` (a JSON Patch of the game the socket holds)
    instead of an ``update`` with the whole game (docs/protocol.md, "Deltas")."""

    type: Literal["hello"]
    since: Version | None = None
    deltas: bool = False
    token: Token | None = None  # first-frame authentication
    ref: Ref | None = None


class Move(Frame):
    type: Literal["move"]
    move: dict[str, Any]
    expected_version: Version
    move_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    ref: Ref | None = None


class Ping(Frame):
    type: Literal["ping"]
    ref: Ref | None = None


class Pong(Frame):
    type: Literal["pong"]
    ref: Ref | None = None
    t: Annotated[int, Field(strict=True, ge=0, le=SAFE_INT)] | None = None


class Auth(Frame):
    """First-frame authentication (a token once the socket is open is ignored)."""

    type: Literal["auth"]
    token: Token
    ref: Ref | None = None


class Chat(Frame):
    """A chat message. ``msg_id`` is the client's own id for it: a retry with the same id (after
    a reconnect, say) answers with the first result, never stores a copy. The text is checked by
    the chat (``chat_empty``, ``chat_too_long`` past 500 characters; control characters are
    stripped)."""

    type: Literal["chat"]
    text: Annotated[str, StringConstraints(max_length=16_384)]
    msg_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    ref: Ref | None = None


class MarkSeen(Frame):
    """The person has seen ``version`` of the game at their seat (rendered, the page visible):
    the since-you-looked mark moves there (``POST /api/tables/{id}/seen`` over the socket),
    answered by ``seen_marked`` or an ``error`` (``not_your_seat``, ``stale_version``)."""

    type: Literal["seen"]
    version: Version
    ref: Ref | None = None


# What a client may send: the transport's own frames, the game's (hello, move) and a companion's
# (chat, answered by app/chat/feed.py; seen, by app/seen/feed.py); parsed here, before anything
# is done with them.
ClientFrame = Annotated[
    Hello | Move | Ping | Pong | Auth | Chat | MarkSeen, Field(discriminator="type")
]
CLIENT_FRAME: TypeAdapter[Hello | Move | Ping | Pong | Auth | Chat | MarkSeen] = TypeAdapter(
    ClientFrame
)


# ---------------------------------------------------------------------------- server → client
# Every frame the server sends is one of these models, built where it is sent and encoded once
# (``wire``); the engine's own objects are its typed contracts (``app.engine_types``), so
# docs/frames.schema.json describes each frame exactly. Data the server made itself (a render, a
# lobby) is trusted: such frames are built with ``model_construct`` (no second walk of a view).
class Sent(Frame):
    """A server frame: its ``type`` always goes out, with the fields it was given."""

    def model_post_init(self, context: Any, /) -> None:
        self.__pydantic_fields_set__.add("type")


class Welcome(Sent):
    type: Literal["welcome"] = "welcome"
    table_id: str
    seat: int | None
    profile_id: str
    heartbeat: float


class Accepted(Sent):
    type: Literal["accepted"] = "accepted"
    version: int
    move_id: str
    events: list[EngineEvent]
    duplicate: bool
    ref: Ref | None = None


class ErrorDetail(Frame):
    loc: list[str]
    msg: str


class Error(Sent):
    """Any refused frame. ``code`` is stable; some codes carry more fields, listed here (an
    application error may carry others of its own, hence open)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    type: Literal["error"] = "error"
    code: str
    message: str
    ref: Ref | None = None
    limit: int | None = None  # frame_too_large, too_many_sockets
    details: list[ErrorDetail] | None = None  # malformed
    per: str | None = None  # too_many_sockets: "profile", "address", "table" or "process"
    seat: int | None = None  # seat_lost: the seat held now (None: a spectator)
    move_id: str | None = None  # a refused move
    msg_id: str | None = None  # a refused chat message
    version: int | None = None  # stale_version: the game's version now
    engine_code: str | None = None  # illegal_move: the engine's own code
    retry_after: int | None = None  # rate_limited


class ServerPing(Sent):
    type: Literal["ping"] = "ping"
    t: int  # the server's wall clock, seconds


class ServerPong(Sent):
    type: Literal["pong"] = "pong"
    ref: Ref | None = None


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"{type(value).__name__} is not JSON")


S = TypeVar("S", bound=Sent)


def trusted(model: type[S], fields: Mapping[str, Any]) -> S:
    """A frame of data the server made itself (a render, rows it read), not walked again."""
    return cast(S, model.model_construct(**fields))


def wire(frame: Sent) -> str:
    """A server frame's JSON: its type and the fields it was given (an optional field left out
    stays out), encoded once."""
    data = {k: v for k, v in frame.__dict__.items() if k in frame.model_fields_set}
    if frame.__pydantic_extra__:
        data.update(frame.__pydantic_extra__)
    return orjson.dumps(data, default=_plain, option=orjson.OPT_NON_STR_KEYS).decode()


def trusted_wire(model: type[Sent], fields: Mapping[str, Any]) -> str:
    """``wire(trusted(model, fields))`` without making the model: the same text (its type
    first, then the fields given in the model's order, then an open model's extra ones), for
    the frames sent at every move to every socket."""
    known = _SHAPES.get(model)
    if known is None:
        names = tuple(model.model_fields)
        known = _SHAPES[model] = (names, model.model_config.get("extra") == "allow")
    names, open_model = known
    data: dict[str, Any] = {}
    for name in names:
        if name in fields:
            data[name] = fields[name]
        elif name == "type":
            data[name] = model.model_fields[name].default
    if open_model:
        for key, value in fields.items():
            if key not in data:
                data[key] = value
    return orjson.dumps(data, default=_plain, option=orjson.OPT_NON_STR_KEYS).decode()


# model -> its fields in order, and whether it keeps fields it does not name
_SHAPES: dict[type[Sent], tuple[tuple[str, ...], bool]] = {}


# ---------------------------------------------------------------------------- parsing
@dataclass(frozen=True)
class Refusal:
    """An inbound frame that cannot be served: the error frame owed for it."""

    code: str
    message: str
    ref: str | int | None = None
    extra: tuple[tuple[str, Any], ...] = ()

    def frame(self) -> Error:
        return error_frame(self.code, self.message, self.ref, **dict(self.extra))


def error_frame(code: str, message: str, ref: str | int | None = None, **extra: Any) -> Error:
    """An error frame (``ref`` only when there is one; every other field given is sent)."""
    if ref is not None:
        extra["ref"] = ref
    return trusted(Error, {"code": code, "message": message, **extra})


_REF: TypeAdapter[str | int] = TypeAdapter(Ref)


@dataclass
class Meter:
    """What the check of a parsed frame looked at: ``examined`` values in all (tests prove
    with it that the work is linear in the text, whatever its shape)."""

    examined: int = 0


# No frame of the protocol holds more than a few dozen values (a move: under 30).
MAX_VALUES = 1000


def inspect_value(value: Any, max_depth: int, meter: Meter | None = None) -> str | None:
    """One walk of a parsed frame, each value looked at once: "deep" when containers nest
    deeper than ``max_depth``, "many" past ``MAX_VALUES`` values (the walk stops there),
    "number" when an integer lies beyond the safe range or a float is not finite (it could not
    be written back out), "nul" when a text or a key holds a NUL character (no database stores
    it: refused before one is asked), else None."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    seen = 0
    found = 1  # values met so far, walked or waiting
    try:
        while stack:
            v, depth = stack.pop()
            seen += 1
            if isinstance(v, dict | list):
                if depth > max_depth:
                    return "deep"
                found += len(v)
                if found > MAX_VALUES:  # counted before a single one is pushed
                    return "many"
                if isinstance(v, dict):
                    if any(NUL in key for key in v):
                        return "nul"
                    items: Any = v.values()
                else:
                    items = v
                stack.extend((x, depth + 1) for x in items)
            elif isinstance(v, str):
                if NUL in v:
                    return "nul"
            elif isinstance(v, bool) or v is None:
                continue
            elif isinstance(v, int):
                if not -SAFE_INT <= v <= SAFE_INT:
                    return "number"
            elif isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
                return "number"
        return None
    finally:
        if meter is not None:
            meter.examined += seen


def usable_ref(raw: Any) -> str | int | None:
    """The frame's ``ref`` if it follows the rule (a string of at most 64 characters or a safe
    integer), else None: a bad ``ref`` is never echoed."""
    if not isinstance(raw, dict) or "ref" not in raw:
        return None
    try:
        return _REF.validate_python(raw["ref"], strict=True)
    except ValidationError:
        return None


# A frame refused before it is parsed (the rate limit) still gets its ``ref`` back when it is at
# most this long: a bounded, constant cost per refused frame.
REF_PEEK_BYTES = 512


def peek_ref(text: str | None) -> str | int | None:
    """The ``ref`` of a short frame refused unparsed, else None (bounded work, never raises)."""
    if text is None or len(text) > REF_PEEK_BYTES:
        return None
    try:
        return usable_ref(json.loads(text))
    except (ValueError, RecursionError):
        return None


def parse_client(
    text: str | None, max_bytes: int, max_depth: int, meter: Meter | None = None
) -> Hello | Move | Ping | Pong | Auth | Chat | MarkSeen | Refusal:
    if text is None:
        return Refusal("malformed", "frames are JSON text")
    size = len(text.encode())
    if size > max_bytes:
        return Refusal("frame_too_large", "frame too large", extra=(("limit", max_bytes),))
    try:
        # The C parser: linear in the text, and it refuses nesting past the interpreter's
        # recursion limit (RecursionError) long before it could hurt.
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return Refusal("malformed", "frames are JSON text")
    found = inspect_value(raw, max_depth, meter)
    if found == "deep":
        return Refusal("malformed", f"frames nest at most {max_depth} deep")
    if found == "many":
        return Refusal("malformed", f"frames hold at most {MAX_VALUES} values")
    ref = usable_ref(raw)
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        return Refusal("malformed", "a frame is an object with a type", ref)
    if found == "number":
        return Refusal("malformed", f"numbers are finite, integers within ±{SAFE_INT}", ref)
    if found == "nul":
        return Refusal("malformed", NUL_MESSAGE, ref)
    try:
        return CLIENT_FRAME.validate_python(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        if errors and errors[0]["type"] == "union_tag_invalid":
            kind = raw["type"][:40]
            return Refusal("unknown_frame", f"unknown frame type {kind!r}", ref)
        details = [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in errors[:10]]
        return Refusal(
            "malformed", f"malformed {raw['type'][:40]} frame", ref, (("details", details),)
        )
