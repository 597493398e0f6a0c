"""The words of push messages, in the three languages of the client (cs, de, en).

A message also carries its language-independent ``kind`` and ``params``, so a client may word it
itself; these are the words the notification shows when it does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

Lang = Literal["cs", "de", "en"]
LANGS: tuple[Lang, ...] = ("cs", "de", "en")

# kind -> (title, body); the body takes {host} (the table's host) and {place} (a number).
CATALOGUES: dict[Lang, dict[str, tuple[str, str]]] = {
    "en": {
        "your_turn": ("Your turn", "Your turn at {host}'s table"),
        "seat_timed_out": (
            "Your time ran out",
            "Your time ran out at {host}'s table: a bot plays your seat. Take it back there.",
        ),
        "game_over": ("The game is over", "The game is over at {host}'s table: you are {ordinal}"),
    },
    "de": {
        "your_turn": ("Du bist am Zug", "Du bist am Zug am Tisch von {host}"),
        "seat_timed_out": (
            "Deine Zeit ist abgelaufen",
            "Am Tisch von {host} ist deine Zeit abgelaufen: ein Bot spielt deinen Platz. "
            "Du kannst ihn dort zurücknehmen.",
        ),
        "game_over": (
            "Das Spiel ist vorbei",
            "Das Spiel am Tisch von {host} ist vorbei: du bist auf Platz {place}",
        ),
    },
    "cs": {
        "your_turn": ("Jste na tahu", "Jste na tahu u stolu hráče {host}"),
        "seat_timed_out": (
            "Váš čas vypršel",
            "U stolu hráče {host} vám vypršel čas: za vás hraje bot. "
            "Místo si tam můžete vzít zpět.",
        ),
        "game_over": (
            "Hra skončila",
            "Hra u stolu hráče {host} skončila: jste na {place}. místě",
        ),
    },
}


def ordinal_en(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def words(kind: str, params: Mapping[str, object], lang: str) -> tuple[str, str]:
    """(title, body) of a message in ``lang`` (English when the language is unknown)."""
    catalogue = CATALOGUES.get(lang, CATALOGUES["en"])  # type: ignore[call-overload]
    title, body = catalogue[kind]
    place = params.get("place")
    fields = {
        "host": str(params.get("host") or "?"),
        "place": str(place),
        "ordinal": ordinal_en(place) if isinstance(place, int) else str(place),
    }
    return title, body.format(**fields)
