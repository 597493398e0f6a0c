"""The fixed action space covers every legal move of the vocabulary (undo left out), one index a
move, and the generated list of every index (docs/research-spaces.md) is current."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from app import rules
from app.bots.onestep import greedy_move
from app.research import actions, observe, spaces
from app.rules import data

DOCS = Path(__file__).resolve().parents[2] / "docs"

VARIANTS = [
    {"players": 1},
    {"players": 2},
    {"players": 3, "full_selection": True},
    {"players": 4},
    {"players": 2, "random_locations": True},
]


def _wire(state: Any, seat: int) -> list[dict[str, Any]]:
    return [rules.encode_move(m) for m in rules.legal_moves(state, seat)]


@pytest.mark.parametrize(
    "options", VARIANTS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items())
)
def test_every_legal_move_of_played_games_has_its_action(options: dict[str, Any]) -> None:
    """Games half greedy, half random: each legal move maps to an action that maps back to it."""
    for seed in range(3):
        rng = random.Random(seed)
        state = rules.new_game(seed, {**options, "undo": False})
        while rules.outcome(state) is None:
            seat = rules.to_act(state)[0]
            legal = _wire(state, seat)
            got = actions.legal_actions(state, seat)
            assert len(got) == len(legal) == len(set(got))
            assert sorted(actions.key(actions.move_of(a)) for a in got) == sorted(
                actions.key(m) for m in legal
            )
            move = greedy_move(state, seat, legal, rng) if rng.random() < 0.6 else rng.choice(legal)
            state = rules.apply_move(state, seat, move).state


def test_a_seat_holding_everything_finds_every_payment_in_the_table() -> None:
    """The widest payments: a seat with the Scholar (any resources), the Steward (hire anywhere)
    and plenty of every resource and good, at every town location, for every card."""
    base = rules.encode_state(rules.new_game(5, {"players": 2, "undo": False}))
    seat = base["turn"]["seat"]
    checked = 0
    for card in data.ACTION_CARDS:
        for loc in data.LOCATIONS:
            tree = rules.encode_state(rules.decode_state(base))
            p = tree["ps"][seat]
            p["res"] = dict.fromkeys(data.RESOURCES, 6)
            p["goods"] = dict.fromkeys(data.GOODS, 6)
            p["advisors"] = ["scholar", "steward", *data.PER_TURN_ADVISORS, "chamberlain"]
            p["hand"] = [card]
            p["craftsmen"] = [[c, 0] for c in data.COUNTRYSIDE if c == loc] * 3
            state = rules.decode_state(tree)
            state = rules.apply_move(
                state, seat, {"kind": "play_card", "card": card, "slot": 1}
            ).state
            tree = rules.encode_state(state)
            tree["turn"]["visit"] = {"location": loc, "via": "move", "done": [], "fresh": []}
            state = rules.decode_state(tree)
            legal = _wire(state, seat)
            checked += len(legal)
            assert len(actions.legal_actions(state, seat)) == len(legal)
    assert checked > 5000


def test_actions_and_moves_round_trip_and_are_valid_wire_moves() -> None:
    moves, index = actions.table()
    assert len(moves) == actions.size() == len(index)
    for i, move in enumerate(moves):
        assert actions.action_of(move) == i
        assert actions.move_of(i) == move
        assert rules.decode_move(move).kind == move["kind"]
    kinds = {m["kind"] for m in moves}
    from app.rules.moves import KINDS

    assert kinds == set(KINDS) - actions.LEFT_OUT
    with pytest.raises(KeyError):
        actions.action_of({"kind": "undo", "to": 0})


def test_the_list_of_every_index_is_current() -> None:
    text = (DOCS / "research-spaces.md").read_text(encoding="utf-8")
    assert text == spaces.render(), "run: python -m app.research.spaces > docs/research-spaces.md"
    guide = (DOCS / "research.md").read_text(encoding="utf-8")
    for first, last, label in actions.blocks():
        assert f"| {first}–{last} | {label} |" in guide or f"| {first} | {label} |" in guide
    assert f"{observe.size()} numbers" in guide and f"{actions.size()} actions" in guide
