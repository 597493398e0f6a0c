"""explain_for: every visible piece has a note in every language, each legal move's promise is
what apply_move then does to the seat, and nothing hidden shapes what a seat is told."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from app.rules import (
    GameState,
    apply_move,
    decode_state,
    encode_move,
    encode_state,
    explain_for,
    legal_moves,
    new_game,
    to_act,
)

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
LANGS = ("en", "cs", "de")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogues() -> dict[str, dict[str, Any]]:
    return {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in LANGS}


def placeholders(message: Any) -> set[str]:
    forms = message.values() if isinstance(message, dict) else [message]
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


def walk(players: int, seed: int, steps: int) -> list[GameState]:
    """A seeded game played by random legal moves (no take-backs); every position on the way."""
    state = new_game(seed, {"players": players, "start_player": 0})
    rng = random.Random(seed)
    seen = [state]
    for _ in range(steps):
        acting = to_act(state)
        if not acting:
            break
        seat = acting[0]
        moves = [m for m in legal_moves(state, seat) if m.kind != "undo"]
        # Prefer doing something over ending: the walk then visits richer positions.
        busy = [m for m in moves if m.kind not in ("end_turn", "end_visit", "decline")]
        move = rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(moves)
        state = apply_move(state, seat, move).state
        seen.append(state)
    return seen


def seat_figures(tree: dict[str, Any], seat: int) -> dict[str, int]:
    """Read straight from the state tree (not through the view the module uses)."""
    p = tree["ps"][seat]
    out = {"cp": p["cp"], "bp": p["bp"], **p["res"], **p["goods"]}
    out.update(
        craftsmen=len(p["craftsmen"]),
        advisors=len(p["advisors"]),
        titles=len(p["titles"]),
        favor_tokens=len(p["favor"]),
    )
    return out


def marker_values(tree: dict[str, Any]) -> dict[str, int]:
    from app.rules.locations import marker_value

    out = {}
    for kind in ("gift", "donation"):
        for res in ("wood", "stone", "cloth", "grain"):
            out[f"{kind}.{res}"] = marker_value(tree, kind, res)
    out["stone"] = marker_value(tree, "stone")
    out["bread"] = marker_value(tree, "bread")
    return out


WALKS = {n: walk(n, seed=40 + n, steps=140) for n in (2, 3, 4)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_note_has_a_text_in_every_language(players: int) -> None:
    cats = catalogues()
    checked = 0
    for state in WALKS[players][::7]:
        for seat in [None, *range(players)]:
            for element, note in explain_for(state, seat)["elements"].items():
                for lang in LANGS:
                    assert note["key"] in cats[lang], f"{lang}: {note['key']} ({element})"
                    missing = placeholders(cats[lang][note["key"]]) - set(note["params"])
                    assert not missing, f"{lang}: {note['key']} lacks {missing}"
                    if note["detail"] is not None:
                        assert note["detail"] in cats[lang], f"{lang}: {note['detail']}"
                assert note["rule"] in {
                    "turn", "locations", "market", "deliveries", "favor-tokens", "titles",
                    "craftsmen", "advisors", "events", "round-end", "scoring", "solo", "variants",
                }  # fmt: skip
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_promise_is_what_the_move_then_does(players: int) -> None:
    kinds: set[str] = set()
    for state in WALKS[players]:
        for seat in to_act(state):
            explained = explain_for(state, seat)
            legal = [encode_move(m) for m in legal_moves(state, seat)]
            assert [e["move"] for e in explained["moves"]] == legal
            before = encode_state(state)
            for effect in explained["moves"]:
                after = apply_move(state, seat, effect["move"])
                if not effect["known"]:
                    assert any(ev["type"] == "event_revealed" for ev in after.events)
                    assert effect["gains"] == {} and effect["markers"] == []
                    continue
                tree = encode_state(after.state)
                old, new = seat_figures(before, seat), seat_figures(tree, seat)
                assert effect["gains"] == {k: new[k] - old[k] for k in new if new[k] != old[k]}
                m_old, m_new = marker_values(before), marker_values(tree)
                for change in effect["markers"]:
                    assert (change["before"], change["after"]) == (
                        m_old[change["marker"]],
                        m_new[change["marker"]],
                    )
                kinds.add(effect["move"]["kind"])
    assert {"play_card", "move", "harvest", "end_turn"} <= kinds


def test_a_bread_delivery_promises_its_cp_and_the_marker_step() -> None:
    state = new_game(5, {"players": 2, "start_player": 0})
    tree = encode_state(state)
    p = tree["ps"][0]
    p["goods"]["bread"] = 2
    tree["turn"].update(card="take_wood", slot=1, moved=True)
    tree["turn"]["visit"] = {
        "location": "construction_site",
        "via": "move",
        "done": [],
        "fresh": [],
    }
    p["slots"][0] = "take_wood"
    p["hand"].remove("take_wood") if "take_wood" in p["hand"] else None
    state = decode_state(tree)
    bread_value = tree["markers"]["bread"][0]
    effects = explain_for(state, 0)["moves"]
    two = next(e for e in effects if e["move"] == {"kind": "deliver_bread", "count": 2})
    assert two["gains"] == {"cp": 2 * bread_value, "bread": -2}
    assert two["markers"][0]["marker"] == "bread"
    assert two["markers"][0]["before"] == bread_value
    note = explain_for(state, 0)["elements"]["marker:bread"]
    assert note["params"]["value"] == bread_value
    assert effects.index(two) in note["moves"]


def hide_differently(state: GameState, seat: int) -> GameState:
    """The same position as ``seat`` may see it, with every secret changed: the other hands and
    every deck, the favor pile, the event deck below its top, the boxed and stacked advisors,
    and the seed."""
    tree = encode_state(state)
    for other, p in enumerate(tree["ps"]):
        p["deck"] = list(reversed(p["deck"]))
        if other != seat and p["deck"] and p["hand"]:
            k = min(len(p["hand"]), len(p["deck"]))
            p["hand"], p["deck"] = p["deck"][:k] + p["hand"][k:], p["hand"][:k] + p["deck"][k:]
    tree["favor"]["pile"] = list(reversed(tree["favor"]["pile"]))
    tree["event_deck"] = tree["event_deck"][:1] + list(reversed(tree["event_deck"][1:]))
    tree["boxed_advisors"] = list(reversed(tree["boxed_advisors"]))
    tree["b_stack"] = tree["b_stack"][:1] + list(reversed(tree["b_stack"][1:]))
    tree["rng"] = {"seed": tree["rng"]["seed"] + 1, "draws": tree["rng"]["draws"]}
    return decode_state(tree)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_secret_shapes_what_a_seat_is_told(players: int) -> None:
    draws: set[str] = set()
    unknown = 0
    for state in WALKS[players]:
        for seat in to_act(state):
            told = explain_for(state, seat)
            assert explain_for(hide_differently(state, seat), seat) == told
            for effect in told["moves"]:
                draws.update(effect["blind_draws"])
                unknown += not effect["known"]
        assert explain_for(hide_differently(state, 0), None) == explain_for(state, None)
    assert "favor_tokens" in draws or players == 2  # a donation was seen on the way
    assert unknown  # a round ended on the way: its promise held nothing back


def test_a_donation_promises_the_draw_but_not_the_tokens() -> None:
    for state in WALKS[3] + WALKS[4]:
        for seat in to_act(state):
            for effect in explain_for(state, seat)["moves"]:
                if effect["move"]["kind"] != "cathedral_donation":
                    continue
                assert effect["blind_draws"] == ["favor_tokens"]
                assert "favor_tokens" not in effect["gains"]
                assert not any("token" in k for k in json.dumps(effect["gains"]))
                return
    pytest.fail("no donation in the walks")


def test_a_spectator_is_told_no_moves_and_no_hand() -> None:
    state = WALKS[3][30]
    told = explain_for(state, None)
    assert told["moves"] == [] and told["seat"] is None
    seated = explain_for(state, to_act(state)[0])
    hand = encode_state(state)["ps"][to_act(state)[0]]["hand"]
    assert all("card:" + c in seated["elements"] for c in hand)
    played = {c for p in encode_state(state)["ps"] for c in p["slots"] if c}
    assert {k for k in told["elements"] if k.startswith("card:")} == {"card:" + c for c in played}
