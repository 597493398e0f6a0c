"""A table's options: as the lobby stores them (``TableOptionsDoc``, JSON in
``game_table.options``) and as the engine takes them (``EngineOptions``, what the start deals
with and a record keeps).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, TypedDict, cast

from app.pace.schemas import PaceOptions

if TYPE_CHECKING:
    from app.tables.types import TableLike


class TableOptionsDoc(TypedDict, total=False):
    """The options a table was opened with: a ``schemas.TableOptions`` dumped (every key), or
    what a solo table, a guided game or a rematch was opened with (some keys: the defaults of
    ``TableOptions`` hold for the rest)."""

    building_start: int | None
    random_locations: bool
    full_selection: bool
    start_player: Literal["random"] | int
    spectators: bool
    idle_seconds: int
    undo: bool
    spectator_chat: bool
    pace: PaceOptions
    timeout_bot_level: Literal["random", "greedy", "strong"]
    public_replay: bool
    guided: bool  # a guided first game (app/tutorial): its hints are served


class EngineOptions(TypedDict, total=False):
    """The options as the engine takes them (``rules.new_game``); a record's, without nulls."""

    players: int
    start_player: int
    building_start: int
    random_locations: bool
    full_selection: bool
    undo: bool


# ``game_table.options`` is JSON: only the lobby writes it, from a ``TableOptionsDoc``.
def options_of(t: TableLike) -> TableOptionsDoc:
    """The options of a table as read (its row's own, not a copy)."""
    return cast(TableOptionsDoc, t.options)


def stored_options(value: Mapping[str, object] | None) -> TableOptionsDoc:
    """A copy of options read from the column (None: a row without any, no options)."""
    return cast(TableOptionsDoc, dict(value or {}))


def engine_options(seat_count: int, options: TableOptionsDoc) -> EngineOptions:
    """The options as the engine takes them (a random start player drawn here)."""
    out: EngineOptions = {}
    building_start = options.get("building_start")
    if building_start is not None:
        out["building_start"] = building_start
    if "random_locations" in options:
        out["random_locations"] = options["random_locations"]
    if "full_selection" in options:
        out["full_selection"] = options["full_selection"]
    start = options.get("start_player", "random")
    out["start_player"] = secrets.randbelow(seat_count) if start == "random" else start
    if "undo" in options:
        out["undo"] = options["undo"]
    out["players"] = seat_count
    return out
