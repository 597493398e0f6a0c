"""The contracts of blocks: a request names a profile by its id; an answer names the blocked
person by id and name only."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import BaseModel, Field

from app.strict import Strict

PROFILE_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
BlockedIdPath = Annotated[str, Path(pattern=PROFILE_ID_PATTERN, description="a profile id")]


class BlockIn(Strict):
    profile_id: str = Field(pattern=PROFILE_ID_PATTERN)


class BlockOut(BaseModel):
    """Someone I blocked, and since when (ISO 8601 UTC)."""

    id: str
    name: str
    since: str | None


class BlocksOut(BaseModel):
    blocked: list[BlockOut]
