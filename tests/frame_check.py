"""Every frame a table socket sends during a test is checked against docs/frames.schema.json.

``FrameCheck.watch`` wraps the ``send_text`` of each socket's transport (a real Starlette
WebSocket, or a test's fake): the text is parsed and validated against the schema's ``server``
frames before it goes out; a frame that does not match is recorded (with what was wrong), and
the test that sent it fails (tests/conftest.py). The frame is sent as it was either way.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "frames.schema.json"


@cache
def _document() -> dict[str, Any]:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@cache
def validator(kind: object) -> Any:
    """A validator of the committed schema's frame of this ``type`` (any server frame, for a
    type the schema does not name). Its ``$defs`` are reached from the document's root, so the
    whole document is the schema, pointed at the frame."""
    doc = _document()
    mapping: dict[str, str] = doc["server"]["discriminator"]["mapping"]
    target = mapping.get(kind, "#/server") if isinstance(kind, str) else "#/server"
    return jsonschema_rs.Draft202012Validator({**doc, "$ref": target})


def problems(text: str) -> list[str]:
    """What is wrong with one sent frame (empty: it follows the schema)."""
    try:
        frame = json.loads(text)
    except ValueError:
        return [f"not JSON: {text[:80]!r}"]
    kind = frame.get("type") if isinstance(frame, dict) else None
    return [
        f"{kind} frame at /{'/'.join(map(str, e.instance_path))}: {e.message[:200]}"
        for e in validator(kind).iter_errors(frame)
    ]


@dataclass
class FrameCheck:
    checked: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, text: str) -> None:
        self.checked += 1
        self.failures.extend(problems(text))

    def watch(self, transport: Any) -> None:
        """Check every text ``transport`` sends from now on."""
        send: Callable[[str], Awaitable[None]] = transport.send_text

        async def send_text(data: str) -> None:
            self.check(data)
            await send(data)

        transport.send_text = send_text


CHECK = FrameCheck()
