"""The browser handles exactly the frame kinds the server sends (docs/frames.schema.json).

The table page's dispatcher (``onFrame`` in static/js/table.js, a ``switch`` over the frame's
type) and the socket's own (``receive`` in static/js/socket.js: ping, pong, direct answers)
together name every server frame kind, and nothing else; the other modules that look at a
frame's type (chat, lobby, state) name only kinds the server sends.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "js"


def server_kinds() -> set[str]:
    schema = json.loads((ROOT / "docs" / "frames.schema.json").read_text(encoding="utf-8"))
    return set(schema["server"]["discriminator"]["mapping"])


def method_body(source: str, signature: str) -> str:
    """The text of a method, from its signature to the closing brace at its indentation."""
    found = re.search(rf"^( *){re.escape(signature)} \{{\n(.*?)^\1\}}", source, re.M | re.S)
    assert found is not None, f"no method {signature}"
    return found.group(2)


def switch_cases(body: str) -> set[str]:
    return set(re.findall(r'case "(\w+)":', body))


def compared_kinds(body: str, name: str) -> set[str]:
    return set(re.findall(rf'\b{name}\.type === "(\w+)"', body))


def browser_kinds(table_js: str, socket_js: str) -> set[str]:
    table = switch_cases(method_body(table_js, "onFrame(f)"))
    socket = compared_kinds(method_body(socket_js, "receive(frame)"), "frame")
    return table | socket


def test_the_table_page_handles_exactly_the_frame_kinds_the_server_sends() -> None:
    table_js = (JS / "table.js").read_text(encoding="utf-8")
    socket_js = (JS / "socket.js").read_text(encoding="utf-8")
    assert browser_kinds(table_js, socket_js) == server_kinds()


def test_other_modules_look_only_for_kinds_the_server_sends() -> None:
    kinds = server_kinds()
    looked_for = {
        "chat.js": compared_kinds((JS / "chat.js").read_text(encoding="utf-8"), "f"),
        "lobby.js": compared_kinds((JS / "lobby.js").read_text(encoding="utf-8"), "f"),
        "state.js": compared_kinds((JS / "state.js").read_text(encoding="utf-8"), "g"),
    }
    assert looked_for["chat.js"] == {"chat_history", "chat", "presence", "lobby"}
    assert {name: sorted(found - kinds) for name, found in looked_for.items()} == {
        "chat.js": [],
        "lobby.js": [],
        "state.js": [],
    }


def test_the_check_sees_a_handler_of_a_kind_never_sent() -> None:
    table_js = (JS / "table.js").read_text(encoding="utf-8")
    socket_js = (JS / "socket.js").read_text(encoding="utf-8")
    extra = table_js.replace('case "welcome":', 'case "seats":\n      case "welcome":', 1)
    missing = table_js.replace('case "update":', "", 1)
    assert browser_kinds(extra, socket_js) == server_kinds() | {"seats"}
    assert browser_kinds(missing, socket_js) == server_kinds() - {"update"}
