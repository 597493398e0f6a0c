"""The base of every request body: strict types (no coercion of ``"5"`` to 5 or 5 to ``"5"``)
and no unknown fields. Anything else is a 422 ``malformed`` that changes nothing."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
