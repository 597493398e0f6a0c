"""Request bodies shared by the profile endpoints and the socket (pydantic): anything else is a
422 ``malformed``. The table and bot bodies live with their features (``app/tables/schemas``,
``app/bots/schemas``); ``MoveIn`` is re-exported here for the socket."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.tables.schemas import JoinIn, MoveIn, TableIn, TableOptions

__all__ = ["JoinIn", "MoveIn", "ProfileIn", "RecoverIn", "Strict", "TableIn", "TableOptions"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProfileIn(Strict):
    name: str = Field(min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def _clean(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v or any(not ch.isprintable() for ch in v):
            raise ValueError("name must be printable and not blank")
        return v


class RecoverIn(Strict):
    code: str = Field(min_length=4, max_length=64)
