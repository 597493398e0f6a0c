"""The game record (format 1): everything needed to replay a finished game, and nothing else.

A record is a plain JSON document (docs/records.md explains it for third-party readers, and
docs/records.schema.json is its JSON Schema, generated from these models). It is parsed in
pydantic's strict mode with every number bounded, every list capped and no unknown field, so a
hostile record is a typed 422 before the engine ever sees it.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, Field, StringConstraints

from app.records.bounds import MAX_RECORD_MOVES
from app.strict import Strict
from app.tables.options import EngineOptions

FORMAT: Final = "emara-record"
FORMAT_VERSION: Final = 1
# The most moves a record of any game may hold (four seats; app/records/bounds.py derives it
# from the rules data). A record of fewer seats is held to its own bound at import.
MAX_MOVES = MAX_RECORD_MOVES
# Seeds are drawn as 62 random bits; the record accepts any non-negative 63-bit number.
MAX_SEED = 2**63 - 1
# Bounds of any number inside a move or an outcome: no real value comes near them.
SMALL_INT = Annotated[int, Field(ge=-(2**31), le=2**31 - 1)]
WORD = Annotated[str, StringConstraints(max_length=64)]

# One field of a move in wire form (docs/moves.md): a word, a number, a list of words or a
# payment (word -> count).
MoveValue = WORD | SMALL_INT | list[WORD] | dict[WORD, SMALL_INT]


class RecordOptions(Strict):
    """The options exactly as the engine took them (app/rules ``new_game``)."""

    players: int = Field(ge=1, le=4)
    start_player: int = Field(ge=0, le=3)
    building_start: int | None = Field(default=None, ge=0, le=200)
    random_locations: bool = False
    full_selection: bool = False
    undo: bool = True

    def engine(self) -> EngineOptions:
        out: EngineOptions = {"players": self.players, "start_player": self.start_player}
        if self.building_start is not None:
            out["building_start"] = self.building_start
        out["random_locations"] = self.random_locations
        out["full_selection"] = self.full_selection
        out["undo"] = self.undo
        return out


class RecordPlayer(Strict):
    """Who held a seat: a person's display name (null for a bot of its own), and the bot level
    when a bot played the seat at the end."""

    seat: int = Field(ge=0, le=3)
    name: str | None = Field(default=None, max_length=40)
    bot_level: Literal["random", "greedy", "strong"] | None = None


class RecordMove(Strict):
    """One move: the seat that made it, the move in wire form (docs/moves.md), and when it was
    made (ISO 8601 UTC; null when unknown)."""

    seat: int = Field(ge=0, le=3)
    move: dict[WORD, MoveValue] = Field(max_length=12)
    at: str | None = Field(default=None, max_length=40)


class RecordLeftover(Strict):
    points: SMALL_INT
    to_cp: SMALL_INT
    to_bp: SMALL_INT


class RecordSourcePoints(Strict):
    """One track's points by source (docs/view.md "points"); they sum to the track."""

    start: SMALL_INT
    titles: SMALL_INT
    craftsmen: SMALL_INT
    advisors: SMALL_INT
    deliveries: SMALL_INT
    books: SMALL_INT
    favor: SMALL_INT
    events: SMALL_INT
    paid: SMALL_INT
    leftovers: SMALL_INT
    unrecorded: SMALL_INT


class RecordPoints(Strict):
    cp: RecordSourcePoints
    bp: RecordSourcePoints


class RecordOutcomePlayer(Strict):
    seat: int = Field(ge=0, le=3)
    cp: SMALL_INT
    bp: SMALL_INT
    score: SMALL_INT
    rank: int = Field(ge=1, le=4)
    leftover: RecordLeftover
    tiebreak: Literal["higher_track", "title", "title_cp", "shared"] | None
    points: RecordPoints


class RecordOutcomeVictoria(Strict):
    cp: SMALL_INT
    score: SMALL_INT
    rank: int = Field(ge=1, le=2)


class RecordOutcome(Strict):
    """The engine's ``outcome`` of the final position (docs/view.md "outcome")."""

    players: list[RecordOutcomePlayer] = Field(min_length=1, max_length=4)
    victoria: RecordOutcomeVictoria | None
    won: bool | None


class GameRecord(Strict):
    """A finished game of Crown of Emara, replayable move by move (docs/records.md)."""

    format: Literal["emara-record"]
    format_version: Literal[1]
    # The printed numbers the game was played with: "sha256:" and the first 16 hex digits of
    # the SHA-256 of components.json in canonical form (app/records/version.py).
    rules_version: str = Field(pattern=r"^sha256:[0-9a-f]{16}$")
    options: RecordOptions
    players: list[RecordPlayer] = Field(min_length=1, max_length=4)
    seed: int = Field(ge=0, le=MAX_SEED)
    moves: list[RecordMove] = Field(max_length=MAX_MOVES)
    outcome: RecordOutcome
    name: str | None = Field(default=None, max_length=60)
    finished_at: str | None = Field(default=None, max_length=40)


# ------------------------------------------------------------------------------ responses
class ImportedOut(BaseModel):
    """An imported record, stored as a replay the importer owns."""

    replay_id: str
    positions: int


class ReplayPlayer(BaseModel):
    seat: int
    name: str | None
    bot_level: str | None


class TrackPoint(BaseModel):
    """Both tracks of one player (``seat``; null with ``victoria``: the solo opponent) at one
    position; ``score`` is the lower track."""

    seat: int | None
    victoria: bool = False
    cp: int | None
    bp: int | None = None
    score: int | None = None


class ReplayLogEntry(BaseModel):
    """The move that led to ``position``: as the table's log shows it (``events`` redacted for
    the eyes asked for), and ``summary``, the engine's words-ready summary of it (one item list
    per seat that acted; app/rules/summary.py)."""

    position: int
    seat: int
    move: dict[str, Any]
    events: list[dict[str, Any]]
    at: str | None
    summary: list[dict[str, Any]]


class ReplayOut(BaseModel):
    """A replay's meta data and one page of it: the positions ``offset`` to ``offset + limit
    - 1`` (position 0 is the deal, position ``n`` follows move ``n``), the log entry of each
    of them but the deal, and both score tracks of every player at each (``tracks[i]``:
    position ``offset + i``). ``next_offset`` continues; null: that was the last page."""

    replay_id: str
    source: Literal["table", "import"]
    table_id: str | None
    name: str | None
    options: dict[str, Any]
    players: list[ReplayPlayer]
    outcome: dict[str, Any]
    positions: int
    eyes: str
    offset: int
    limit: int
    next_offset: int | None
    log: list[ReplayLogEntry]
    tracks: list[list[TrackPoint]]
    rules_version: str
    finished_at: str | None


class OpenHand(BaseModel):
    """One seat's hidden part, opened: its hand and the decision it faces (the ``me`` of that
    seat's own view)."""

    seat: int
    hand: list[str]
    decision: dict[str, Any] | None


class PositionOut(BaseModel):
    """The game at one position through one seat's eyes (``view`` as that seat saw it), or
    everyone's (``eyes`` = ``all``: the public view, with every hand in ``hands``)."""

    replay_id: str
    position: int
    positions: int
    eyes: str
    view: dict[str, Any]
    hands: list[OpenHand] | None
    scores: list[TrackPoint]
    move: ReplayLogEntry | None


class PublicReplayIn(Strict):
    public_replay: bool
