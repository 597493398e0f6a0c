"""The secret canary of the research spaces: an observation (the PettingZoo array and mask, the
OpenSpiel tensor and string) holds nothing a seat may not see.

For every seat at positions all through games of 1 to 4 players, the game's secrets are drawn
afresh (``determinize``: every other hand, every deck order, the favor piles, the boxed and
stacked advisors, the event deck under its top card, the seed), and the observation must not
change. It is also built from ``rules.view_for`` alone — the server's allow-list — so the
canary checks the whole path, from state to numbers.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

from app import rules
from app.bots.sample import determinize
from app.research import actions, observe, openspiel_game
from app.research.pettingzoo_env import env

SEED = 982_451_653  # distinctive digits: any appearance in an observation is a leak


def _secrets(state: rules.GameState, seat: int) -> dict[str, Any]:
    st = rules.encode_state(state)
    return {
        "hands": [p["hand"] for s, p in enumerate(st["ps"]) if s != seat],
        "decks": [p["deck"] for p in st["ps"]],
        "piles": [st["favor"]["pile"], st["favor"]["discard"]],
        "advisors": [st["boxed_advisors"], st["b_stack"][1:]],
        "events": st["event_deck"][1:],
        "seed": st["rng"],
    }


def _positions(players: int) -> list[rules.GameState]:
    rng = random.Random(players)
    state = rules.new_game(SEED, {"players": players, "undo": False})
    out = []
    while rules.outcome(state) is None:
        if rng.random() < (0.4 if players < 3 else 0.2):
            out.append(state)
        seat = rules.to_act(state)[0]
        state = rules.apply_move(state, seat, rng.choice(rules.legal_moves(state, seat))).state
    return out


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_observations_do_not_change_when_every_secret_does(players: int) -> None:
    e = env(players=players)
    e.reset(seed=SEED)
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": players})
    observer = openspiel_game.ViewObserver(None)
    rng = random.Random(7)
    changed = {k: 0 for k in ("hands", "decks", "piles", "advisors", "events", "seed")}
    looked = 0
    for state in _positions(players):
        for seat in range(players):
            other = determinize(dict(rules.view_for(state, seat)), rng)
            mine, theirs = _secrets(state, seat), _secrets(other, seat)
            for k in changed:
                changed[k] += mine[k] != theirs[k]
            looked += 1
            agent = f"player_{seat}"
            seen = []
            for world in (state, other):
                e.state_ = world
                obs = e.observe(agent)
                held = game.new_initial_state()
                held.held = openspiel_game._Held(world)
                observer.set_from(held, seat)
                seen.append(
                    (
                        obs["observation"].tobytes(),
                        obs["action_mask"].tobytes(),
                        observer.tensor.tobytes(),
                        observer.string_from(held, seat),
                    )
                )
            assert seen[0] == seen[1], f"seat {seat} tells two worlds apart"
            assert str(SEED) not in seen[0][3]
            assert not np.isin(np.float32(SEED), e.observe(agent)["observation"]).any()
    assert looked > 20
    # the canary had something to find: the secrets did change, in most positions
    assert changed["seed"] == looked and changed["decks"] > looked // 2
    if players > 1:
        assert changed["hands"] > looked // 2
    assert changed["piles"] + changed["advisors"] + changed["events"] > 0


def test_the_encoder_reads_a_view_only() -> None:
    """No state goes in: a public view (no seat) is refused, a seat's view is all it needs."""
    state = rules.new_game(SEED, {"players": 2, "undo": False})
    with pytest.raises(ValueError):
        observe.encode(rules.view_for(state, None))
    assert len(observe.encode(rules.view_for(state, 1))) == observe.size()
    assert actions.legal_actions(state, 1 - rules.to_act(state)[0]) == []
