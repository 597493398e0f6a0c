"""Request bodies (pydantic): anything else is a 422 ``malformed``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


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


class TableOptions(Strict):
    building_start: int | None = Field(default=None, ge=0, le=200)
    random_locations: bool = False
    full_selection: bool = False
    start_player: Literal["random"] | int = "random"
    spectators: bool = True
    # Seconds a player may stay idle on their turn before the host can hand the seat to a bot.
    idle_seconds: int = Field(default=120, ge=0, le=7 * 86400)


class TableIn(Strict):
    seats: int = Field(ge=1, le=4)
    options: TableOptions = Field(default_factory=TableOptions)

    @model_validator(mode="after")
    def _start_player_seated(self) -> TableIn:
        sp = self.options.start_player
        if isinstance(sp, int) and not 0 <= sp < self.seats:
            raise ValueError("start_player must be 'random' or a seat number below seats")
        return self


class JoinIn(Strict):
    invite_code: str = Field(min_length=1, max_length=64)


class MoveIn(Strict):
    move: dict[str, Any]
    expected_version: int = Field(ge=0)
    move_id: str = Field(min_length=1, max_length=64)
