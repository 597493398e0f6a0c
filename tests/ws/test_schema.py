"""The committed JSON Schema of the socket frames is the one the models give."""

from __future__ import annotations

from pathlib import Path

from app.frames_schema import frames_schema, render

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "frames.schema.json"


def test_committed_frames_schema_is_current() -> None:
    assert COMMITTED.read_text() == render(), (
        "docs/frames.schema.json is stale: python -m app.frames_schema > docs/frames.schema.json"
    )


def test_schema_names_every_frame_in_both_directions() -> None:
    schema = frames_schema()
    client = set(schema["client"]["discriminator"]["mapping"])
    server = set(schema["server"]["discriminator"]["mapping"])
    assert client == {"hello", "move", "ping", "pong", "auth", "chat", "seen"}
    assert server == {
        "welcome",
        "lobby",
        "snapshot",
        "update",
        "delta",
        "accepted",
        "error",
        "ping",
        "pong",
        "presence",
        "chat",
        "chat_history",
        "chat_accepted",
        "seen_marked",
    }
