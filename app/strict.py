"""The base of every request body: strict types (no coercion of ``"5"`` to 5 or 5 to ``"5"``),
no unknown fields, and no NUL character in any text. Anything else is a 422 ``malformed`` that
changes nothing.

A NUL cannot be stored in a Postgres text or JSON value: refused here, at the border, it never
takes a database connection (the database would refuse it only once a connection is taken, and
the connection would then be closed). ``NulFree`` is that one check for a body that is not
strict (a browser's WebAuthn answer); paths and query strings are checked by
app/web/nul.py, socket frames by app/realtime/frames.py (``inspect_value``)."""

from __future__ import annotations

from typing import Any, Self

from pydantic import BaseModel, ConfigDict, model_validator

NUL = "\x00"
NUL_MESSAGE = "text may not hold a NUL character"


def holds_nul(value: Any) -> bool:
    """Whether any text in ``value`` (strings, keys of mappings, at any depth) holds a NUL. One
    walk, each value looked at once; a model inside is not walked (it checked itself)."""
    stack: list[Any] = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if NUL in v:
                return True
        elif isinstance(v, dict):
            for key, item in v.items():
                if isinstance(key, str) and NUL in key:
                    return True
                stack.append(item)
        elif isinstance(v, list | tuple | set | frozenset):
            stack.extend(v)
    return False


class NulFree(BaseModel):
    """A body none of whose texts holds a NUL (422 ``malformed`` otherwise)."""

    @model_validator(mode="after")
    def _no_nul(self) -> Self:
        for name in type(self).model_fields:
            if holds_nul(getattr(self, name)):
                raise ValueError(f"{name}: {NUL_MESSAGE}")
        return self


class Strict(NulFree):
    model_config = ConfigDict(strict=True, extra="forbid")
