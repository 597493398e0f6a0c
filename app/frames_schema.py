"""The JSON Schema of the table socket's frames, both directions: the transport's own frames
(app/realtime/frames.py), the tables feature's (app/tables/frames.py), chat's and presence's
(app/chat/frames.py) and since-you-looked's (app/seen/frames.py), in one document.

``python -m app.frames_schema > docs/frames.schema.json`` writes the committed copy (a test
fails when it is stale).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from app.chat.frames import ChatAccepted, ChatHistory, ChatMessage, PresenceFrame
from app.realtime.frames import (
    CLIENT_FRAME,
    Accepted,
    Error,
    ServerPing,
    ServerPong,
    Welcome,
)
from app.seen.frames import SeenMarked
from app.tables.frames import Delta, Lobby, Snapshot, Update

ServerFrame = Annotated[
    Welcome
    | Lobby
    | Snapshot
    | Update
    | Delta
    | Accepted
    | Error
    | ServerPing
    | ServerPong
    | PresenceFrame
    | ChatMessage
    | ChatHistory
    | ChatAccepted
    | SeenMarked,
    Field(discriminator="type"),
]
SERVER_FRAME: TypeAdapter[Any] = TypeAdapter(ServerFrame)


def frames_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Emara table socket frames",
        "description": "Frames of /ws/tables/{id}: `client` are sent by clients, `server` by "
        "the server (see docs/protocol.md).",
        "client": CLIENT_FRAME.json_schema(ref_template="#/client/$defs/{model}"),
        "server": SERVER_FRAME.json_schema(ref_template="#/server/$defs/{model}"),
    }


def render() -> str:
    return json.dumps(frames_schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(render(), end="")
