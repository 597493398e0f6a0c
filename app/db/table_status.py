"""The life of a table, shared by the database layer, the services and the HTTP contracts."""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    """lobby -> playing -> finished; closed: everybody left before the start."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"
