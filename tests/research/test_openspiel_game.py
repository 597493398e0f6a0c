"""The engine as an OpenSpiel game: a short playthrough, OpenSpiel's own random simulation test,
information-state resampling, and OpenSpiel's MCTS and IS-MCTS bots choosing moves on it."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from app import rules
from app.research import actions, observe, openspiel_game
from app.research.match import Settings


def _load(players: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": players, **params})


def test_the_game_is_registered_as_imperfect_information_with_explicit_chance() -> None:
    game = _load(3)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_players() == 3
    assert game.num_distinct_actions() == actions.size()
    assert game.information_state_tensor_shape() == [observe.size()]


def test_a_short_playthrough() -> None:
    """The deal, then random legal actions to the end; the returns are the engine's outcome."""
    game = _load(2, deals=16, seed_base=100)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 16 and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    state.apply_action(5)
    assert str(state).startswith("round 1 turns")
    rng = np.random.default_rng(0)
    played = []
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        assert state.legal_actions(1 - player) == []
        assert len(state.observation_tensor(player)) == observe.size()
        action = int(rng.choice(legal))
        assert state.action_to_string(player, action) == actions.key(actions.move_of(action))
        played.append((player, action))
        state.apply_action(action)
    engine = rules.new_game(105, Settings(players=2).options())
    for player, action in played:
        engine = rules.apply_move(engine, player, actions.move_of(action)).state
    out = rules.outcome(engine)
    assert out is not None
    assert state.returns() == [float(p["score"]) for p in out["players"]]
    assert state.history()[0] == 5 and len(state.history()) == len(played) + 1


def test_openspiel_random_simulation_test() -> None:
    pyspiel.random_sim_test(_load(2, reward="win"), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("players", [1, 4])
def test_resampling_keeps_the_information_state(players: int) -> None:
    game = _load(players)
    state = game.new_initial_state()
    state.apply_action(3)
    rng = np.random.default_rng(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()


def test_openspiel_mcts_and_ismcts_pick_legal_moves() -> None:
    game = _load(2, reward="win")
    state = game.new_initial_state()
    state.apply_action(2)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(2))
    assert bot.step(state) in state.legal_actions()
    is_bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(3))
    assert is_bot.step(state) in state.legal_actions()
