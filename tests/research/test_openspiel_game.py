"""The engine as an OpenSpiel game: a short playthrough, OpenSpiel's own random simulation test,
information-state resampling, and OpenSpiel's MCTS and IS-MCTS bots choosing moves on it (as the
yardstick's opponent)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from app import rules
from app.research import actions, observe, openspiel_bots, openspiel_game
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


def _early_position(game: pyspiel.Game) -> pyspiel.State:
    state = game.new_initial_state()
    state.apply_action(2)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("kind", openspiel_bots.KINDS)
def test_openspiel_mcts_and_ismcts_pick_legal_moves_and_their_cpu_is_recorded(kind: str) -> None:
    """The yardstick's opponent (`Fixed`, through `search_bot`): OpenSpiel's bot searching our
    game; the same seed chooses the same move (IS-MCTS's resamples too), and each searched
    move's CPU is kept."""
    game = _load(2, reward="win")
    state = _early_position(game)
    assert len(state.legal_actions()) > 1
    bot = openspiel_bots.Fixed(game, kind, 1, seed=3)  # asks for 2: the least that expands
    move = bot.step(state)
    assert move in state.legal_actions()
    assert len(bot.cpu) == 1 and bot.cpu[0] > 0.0
    again = {openspiel_bots.Fixed(game, kind, 1, seed=3).step(state) for _ in range(6)}
    assert again == {move}


def test_a_forced_move_is_played_without_a_search() -> None:
    game = _load(2, reward="win")
    state = _early_position(game)
    rng = np.random.default_rng(4)
    while len(state.legal_actions()) != 1:
        state.apply_action(int(rng.choice(state.legal_actions())))
    bot = openspiel_bots.Fixed(game, "mcts", 8, seed=1)
    assert bot.step(state) == state.legal_actions()[0]
    assert bot.cpu == []


def test_an_unknown_search_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="kind must be one of"):
        openspiel_bots.search_bot(_load(2), "alphazero", 4, np.random.RandomState(0))
