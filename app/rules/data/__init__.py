"""Component numbers of Crown of Emara, loaded once from ``components.json`` in this package.

The JSON file is a copy of the shared component sheet plus an ``effects`` section holding the
numbers that the rules text (not a component) prints. Rule code reads numbers only from here.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def _load() -> dict[str, Any]:
    text = resources.files(__name__).joinpath("components.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


RAW: dict[str, Any] = _load()
EFFECTS: dict[str, Any] = RAW["effects"]

RESOURCES: tuple[str, ...] = ("wood", "stone", "cloth", "grain")
PAY_KEYS: tuple[str, ...] = (*RESOURCES, "gold")
GOODS: tuple[str, ...] = ("bread", "book", "ring", "gold")

ACTION_CARDS: tuple[str, ...] = tuple(RAW["action_cards"])
SLOTS: tuple[int, ...] = tuple(RAW["slots"])
CRAFTSMAN_CP: tuple[int, ...] = tuple(RAW["craftsman_cp"]["values"])
COUNTRYSIDE: dict[str, str] = dict(RAW["countryside"])
TOWN: tuple[str, ...] = tuple(RAW["town"])
LOCATIONS: tuple[str, ...] = (*COUNTRYSIDE, *TOWN)
MAX_OWN_CRAFTSMEN: int = RAW["max_own_craftsmen_per_location"]
HUTS: dict[str, list[dict[str, int]]] = {
    loc: [dict(c) for c in RAW["huts"][loc]] for loc in COUNTRYSIDE
}

MARKERS: dict[str, Any] = RAW["markers"]
MARKET_BOOKS_CP: dict[int, int] = {int(k): v for k, v in RAW["market_books_cp"].items()}
WOOD_BP: dict[int, int] = {int(k): v for k, v in RAW["wood_bp"].items()}
STONE_BP: int = RAW["stone_bp"]
CASTLE_BOOK_BP: int = RAW["castle_book_bp"]

TITLES: tuple[str, ...] = tuple(t["id"] for t in RAW["nobility"]["titles"])
TITLE_COST: dict[str, dict[str, int]] = {
    t["id"]: dict(t["cost"]) for t in RAW["nobility"]["titles"]
}
TITLE_CARDS: dict[str, list[int]] = {
    t["id"]: sorted(t["cards"], reverse=True) for t in RAW["nobility"]["titles"]
}

ADVISOR_COST: dict[str, dict[str, int]] = {}
ADVISOR_KIND: dict[str, str] = {}
ADVISOR_CP: dict[str, int] = {}
ADVISOR_BP: dict[str, int] = {}
A_ADVISORS: tuple[str, ...] = tuple(a["id"] for a in RAW["advisors"]["A"])
B_ADVISORS: tuple[str, ...] = tuple(b["id"] for b in RAW["advisors"]["B"])
for _a in RAW["advisors"]["A"]:
    ADVISOR_COST[_a["id"]] = dict(_a["cost"])
    ADVISOR_KIND[_a["id"]] = _a["kind"]
    ADVISOR_CP[_a["id"]] = _a["cp"]
    ADVISOR_BP[_a["id"]] = 0
for _b in RAW["advisors"]["B"]:
    ADVISOR_COST[_b["id"]] = dict(_b["cost"])
    ADVISOR_KIND[_b["id"]] = "immediate"
    ADVISOR_CP[_b["id"]] = _b["effect"].get("cp", 0)
    ADVISOR_BP[_b["id"]] = _b["effect"].get("bp", 0)
ADVISORS: tuple[str, ...] = (*A_ADVISORS, *B_ADVISORS)
PER_TURN_ADVISORS: tuple[str, ...] = tuple(a for a in A_ADVISORS if ADVISOR_KIND[a] == "per_turn")

FAVOR_TOKENS: list[dict[str, Any]] = [
    {"location": t["location"], "reward": dict(t["reward"])} for t in RAW["favor_tokens"]["tokens"]
]

EVENT_IDS: tuple[str, ...] = tuple(e["id"] for e in RAW["events"]["cards"])
EVENT_TIMING: dict[str, str] = {e["id"]: e["timing"] for e in RAW["events"]["cards"]}
EVENT_START: dict[str, tuple[str, str, int]] = {
    e["id"]: (e["start"][0], e["start"][1], e["start"][2]) for e in RAW["events"]["cards"]
}
EVENT_SOLO_REMOVED: frozenset[str] = frozenset(
    e["id"] for e in RAW["events"]["cards"] if e.get("solo_removed")
)
EVENT_EFFECT: dict[str, dict[str, Any]] = EFFECTS["events"]

VICTORIA_TITLES: dict[int, str] = {
    int(k): v for k, v in RAW["solo"]["victoria_titles_by_round"].items()
}
FINAL_SCORING: dict[str, int] = dict(RAW["final_scoring"])

ROUNDS: int = EFFECTS["rounds"]
MIN_PLAYERS: int = EFFECTS["players"]["min"]
MAX_PLAYERS: int = EFFECTS["players"]["max"]
ADVISORS_PER_TOWN_LOCATION: int = EFFECTS["advisors_per_town_location"]
VICTORIA_FROM_ROUND: int = EFFECTS["victoria_from_round"]
HAND_SIZE: int = EFFECTS["hand_size"]
RESHUFFLE_AFTER_ROUND: int = EFFECTS["reshuffle_after_round"]
