"""The PettingZoo environment passes PettingZoo's own api_test and seed_test, replays exactly
from a seed, pays the documented rewards and refuses an illegal action."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from app import rules
from app.research import actions
from app.research.match import Settings, rewards
from app.research.pettingzoo_env import EmaraEnv, env

# PettingZoo's checks remark on every dict observation (its own chess and go get the same).
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.mark.parametrize("players", [1, 2, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(env(players=players), num_cycles=1000)


@pytest.mark.parametrize("players", [1, 3])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: env(players=players), num_cycles=200)


def test_a_truncated_game_passes_the_api_test_too() -> None:
    api_test(env(players=2, max_moves=40, reward="win"), num_cycles=100)


def _play(e: EmaraEnv, seed: int, pick_seed: int) -> tuple[list[int], list[float]]:
    e.reset(seed=seed)
    rng = np.random.default_rng(pick_seed)
    taken: list[int] = []
    paid = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        paid[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        e.step(action)
    return taken, [paid[a] for a in e.possible_agents]


def test_same_seed_same_actions_same_game() -> None:
    a, b = env(players=3), env(players=3)
    first = _play(a, 11, 1)
    assert _play(b, 11, 1) == first
    # and it is the engine's game: replaying the actions from the seed gives the same outcome
    state = rules.new_game(11, Settings(players=3).options())
    for action in first[0]:
        seat = rules.to_act(state)[0]
        state = rules.apply_move(state, seat, actions.move_of(action)).state
    out = rules.outcome(state)
    assert out is not None and rewards(out, "score") == first[1]
    assert _play(a, 12, 1) != first


@pytest.mark.parametrize("reward", ["score", "win", "rank"])
def test_rewards_are_paid_once_at_the_end(reward: str) -> None:
    e = env(players=2, reward=reward)
    _, paid = _play(e, 3, 3)
    if reward == "score":
        assert all(p > 0 for p in paid)
    elif reward == "win":
        assert sorted(paid) in ([-1.0, 1.0], [0.0, 0.0])
    else:
        assert sorted(paid) in ([0.0, 1.0], [1.0, 1.0])


def test_solo_pays_against_victoria() -> None:
    outcome = {"players": [{"seat": 0, "score": 60, "rank": 2}], "won": False}
    assert rewards(outcome, "score") == [60.0]
    assert rewards(outcome, "win") == [-1.0]
    assert rewards(outcome, "rank") == [0.0]
    won = {"players": [{"seat": 0, "score": 70, "rank": 1}], "won": True}
    assert rewards(won, "win") == [1.0] and rewards(won, "rank") == [1.0]


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env(players=2)
    e.reset(seed=4)
    before = e.state_
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        e.step(illegal)
    assert e.state_ is before


def test_only_the_agent_to_act_has_legal_actions() -> None:
    e = env(players=4)
    e.reset(seed=9)
    masks = {a: e.observe(a)["action_mask"].sum() for a in e.agents}
    assert masks[e.agent_selection] > 0
    assert all(m == 0 for a, m in masks.items() if a != e.agent_selection)
