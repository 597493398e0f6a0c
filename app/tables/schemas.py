"""The HTTP contracts of tables and games: request bodies (strict) and response models.

Requests are parsed in pydantic's strict mode: ``"seats": true`` or ``"seats": "2"`` is a 422
``malformed``, never coerced. Responses describe exactly the JSON the routes return; the engine's
own objects (the view, events, moves) are its typed contracts (``app.engine_types``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator, with_config
from typing_extensions import TypedDict

from app.engine_types import EncodedMove, EngineEvent, Outcome, View
from app.pace.schemas import ClockOut, LivePace, PaceEventOut, PaceOption
from app.strict import Strict
from app.tables.options import TableOptionsDoc
from app.tables.status import TableStatus

# Seconds a player may stay idle on their turn before the host can hand the seat to a bot: at
# least a minute, two by default (docs/bots.md).
IDLE_SECONDS_MIN = 60
IDLE_SECONDS_DEFAULT = 120

# A table id is what ``secrets.token_urlsafe(9)`` makes: twelve URL-safe characters.
TABLE_ID_PATTERN = r"^[A-Za-z0-9_-]{12}$"
# A seat number as written in a path: one digit, no sign, no leading zero (tables hold <= 4).
SEAT_PATTERN = r"^[0-9]$"

TableIdPath = Annotated[str, Path(pattern=TABLE_ID_PATTERN, description="a table id")]
SeatPath = Annotated[str, Path(pattern=SEAT_PATTERN, description="a seat number, 0-3")]


class TableOptions(Strict):
    building_start: int | None = Field(default=None, ge=0, le=200)
    random_locations: bool = False
    full_selection: bool = False
    start_player: Literal["random"] | int = "random"
    spectators: bool = True
    # Seconds a player may stay idle on their turn before the host can hand the seat to a bot.
    idle_seconds: int = Field(default=IDLE_SECONDS_DEFAULT, ge=IDLE_SECONDS_MIN, le=7 * 86400)
    # A player may take back moves of their own turn (the engine judges how far: docs/moves.md).
    undo: bool = True
    # Spectators may write in the table chat (seats always may).
    spectator_chat: bool = False
    # Pace (docs/protocol.md "Pace"): live with a clock or not, or turn-based with deadlines;
    # a seat whose time runs out is handed to a bot of this level.
    pace: PaceOption = Field(default_factory=LivePace)
    timeout_bot_level: Literal["random", "greedy", "strong"] = "greedy"
    # Anyone may see the finished game's record and replay, not only its players (docs/records.md);
    # the host may change it later (PUT /api/tables/{id}/public_replay).
    public_replay: bool = False

    def doc(self) -> TableOptionsDoc:
        """The options as the lobby stores them: every key, checked here."""
        return cast(TableOptionsDoc, self.model_dump())


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
    # The joiner is not the person of the same name seated at the table (without it such a
    # join is refused, ``409 name_seated``: that person signs back in instead).
    another_person: bool = False


class NameIn(Strict):
    """A table's name: up to 60 printable characters (spaces collapsed); empty or null: none."""

    name: str | None = Field(max_length=200)

    @field_validator("name")
    @classmethod
    def _clean(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = " ".join(v.split())
        if any(not ch.isprintable() for ch in v):
            raise ValueError("a table name must be printable")
        if len(v) > 60:
            raise ValueError("a table name has at most 60 characters")
        return v or None


class MoveIn(Strict):
    move: dict[str, Any]
    expected_version: int = Field(ge=0)
    move_id: str = Field(min_length=1, max_length=64)


# ------------------------------------------------------------------------------ responses
class LobbySeat(BaseModel):
    seat: int
    taken: bool
    name: str | None
    bot_level: str | None
    host: bool
    you: bool
    # A socket of this seat's person is open now (any instance, app/presence); else when their
    # last one closed (ISO 8601 UTC; null: never seen, or a bot or empty seat).
    present: bool = False
    last_seen: str | None = None


class LobbyOut(BaseModel):
    """A table as its lobby shows it (the invite code only to its seats): the answer of
    ``GET /api/tables/{id}`` and the ``table`` of the socket's ``lobby`` frame."""

    id: str
    invite_code: str | None
    status: TableStatus
    seats: list[LobbySeat]
    seat_count: int
    options: dict[str, Any]
    host: bool
    my_seat: int | None
    version: int
    outcome: Outcome | None
    created_at: str | None
    clock: ClockOut | None = None
    # The seats whose move it is (empty unless the game runs).
    to_act: list[int] = []
    # Play again: the host's name for the table (null: none), and the table of its rematch (to
    # its seats only, once a player asked for one).
    name: str | None = None
    rematch_id: str | None = None


class TablesOut(BaseModel):
    tables: list[LobbyOut]


# Who holds a seat of a started game (``repository.game_seats``): the player's name, and the bot
# level if a bot plays the seat. One shape, as the table service hands it on and as responses and
# frames declare it (``typing_extensions``' ``TypedDict``, which pydantic reads; its own config,
# so that a frame's does not close it).
@with_config(ConfigDict(extra="ignore"))
class GameSeat(TypedDict):
    seat: int
    name: str | None
    bot_level: str | None


class PlayerScore(BaseModel):
    seat: int | None
    cp: int | None
    bp: int | None
    score: int | None


class VictoriaScore(BaseModel):
    seat: None
    victoria: Literal[True]
    cp: int | None


class LogEntry(BaseModel):
    version: int
    seat: int
    move: EncodedMove
    events: list[EngineEvent]
    at: str | None


class GameOut(BaseModel):
    """The game for one seat (or a spectator): its view, legal moves and the redacted log."""

    version: int
    seat: int | None
    view: View
    legal_moves: list[EncodedMove]
    scores: list[PlayerScore | VictoriaScore]
    status: TableStatus
    seats: list[GameSeat]
    log: list[LogEntry]
    # Asked with ``log_tail``: the log holds only the newest lines and older ones remain
    # (``GET …/log?before=`` pages them); always false for the whole log.
    log_more: bool = False
    clock: ClockOut | None = None
    pace_log: list[PaceEventOut] = []


class LogPageOut(BaseModel):
    """A page of the game log, oldest first, redacted for the caller's seat. ``more``: older
    lines remain (ask again with ``before`` = the first version here)."""

    entries: list[LogEntry]
    more: bool


class MoveOut(BaseModel):
    """A move's result; ``duplicate`` when this move_id had been played already."""

    version: int
    move_id: str
    events: list[EngineEvent]
    duplicate: bool


class HealthOut(BaseModel):
    status: Literal["ok"]
    database: str
