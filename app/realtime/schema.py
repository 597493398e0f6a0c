"""The JSON Schema of the table socket's frames, both directions.

``python -m app.realtime.schema > docs/frames.schema.json`` writes the committed copy (a test
fails when it is stale).
"""

from __future__ import annotations

import json
from typing import Any

from app.realtime.frames import CLIENT_FRAME, SERVER_FRAME


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
