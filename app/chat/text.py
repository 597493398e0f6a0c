"""What a chat message may hold: plain text, at most 500 characters, never markup.

Control characters are stripped (every Unicode ``Cc`` except the line feed, and the invisible
bidirectional overrides and isolates that could make a message read backwards), line ends are
``\\n``, more than two blank lines in a row are squeezed, and the ends are trimmed. What is left
empty is refused (``chat_empty``); more than ``MAX_CHARS`` characters is refused
(``chat_too_long``), never cut. ``<script>`` stays the eight characters it is: clients render
it with ``textContent``.
"""

from __future__ import annotations

import re
import unicodedata

from app.chat.errors import ChatEmpty, ChatTooLong

MAX_CHARS = 500
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
_BLANKS = re.compile(r"\n{3,}")


def clean(raw: str) -> str:
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(
        c for c in text if c == "\n" or (unicodedata.category(c) != "Cc" and c not in _BIDI)
    )
    text = _BLANKS.sub("\n\n", text).strip()
    if not text:
        raise ChatEmpty("a message needs some text")
    if len(text) > MAX_CHARS:
        raise ChatTooLong(f"a message holds at most {MAX_CHARS} characters", limit=MAX_CHARS)
    return text
