"""Crown of Emara as an OpenSpiel Python game: ``pyspiel.load_game("python_emara", {...})``
once this module is imported.

Imperfect information with explicit chance. The game opens with one chance node, the deal: one
of ``deals`` equally likely outcomes, outcome ``i`` being engine seed ``seed_base + i``; the seed
fixes everything random that follows (the event order, every deck, the favor piles, the
advisors; the engine draws them from it), and none of it is shown to a player. After the deal
the players act in the engine's order (Victoria, solo, acts inside the engine); actions are the
fixed action table (``app.research.actions``), legal actions the engine's legal moves.

A player's observation and information state are its own view (``rules.view_for``): the string
is the view as canonical JSON, the tensor ``observe.encode`` of it. (The view is not a full
record of the player's past observations; the string serves as the information-state key.)
``resample_from_infostate(player, sampler)`` returns a state the player cannot tell from this
one, its hidden parts drawn afresh (``app.bots.sample.determinize``), so OpenSpiel's IS-MCTS
runs on the game.

Parameters: ``players`` (1-4, default 2), ``reward`` ("score" default, "win", "rank": see
``app.research.match``), ``building_start`` (-1: the event card's), ``deals`` (default 4096),
``seed_base`` (default 0). Returns are paid at the end only.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from app import rules
from app.bots.sample import determinize
from app.research import actions, observe
from app.research.match import Settings, acting, rewards

SHORT_NAME = "python_emara"
MAX_GAME_LENGTH = 3000  # moves; a game of four players moving at random takes some 350
DEFAULTS: dict[str, Any] = {
    "players": 2,
    "reward": "score",
    "building_start": -1,
    "deals": 4096,
    "seed_base": 0,
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Crown of Emara (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=rules.data.MAX_PLAYERS,
    min_num_players=rules.data.MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class _Held:
    """An engine state carried by an OpenSpiel state: immutable, so a clone shares it."""

    __slots__ = ("state",)

    def __init__(self, state: rules.GameState | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self


class EmaraGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        start = int(p["building_start"])
        self.settings = Settings(
            players=int(p["players"]),
            building_start=None if start < 0 else start,
            reward=str(p["reward"]),
        )
        self.deals = int(p["deals"])
        self.seed_base = int(p["seed_base"])
        low, high = _utility_range(self.settings)
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.size(),
            max_chance_outcomes=self.deals,
            num_players=self.settings.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> EmaraState:
        return EmaraState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        return ViewObserver(params)


def _utility_range(settings: Settings) -> tuple[float, float]:
    if settings.reward == "score":
        return 0.0, 300.0
    if settings.reward == "win":
        return -1.0, 1.0
    return 0.0, 1.0


class EmaraState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: EmaraGame) -> None:
        super().__init__(game)
        self.held = _Held(None)
        self.deal = -1

    @property
    def engine(self) -> rules.GameState | None:
        """The engine's state (None before the deal)."""
        return self.held.state

    def current_player(self) -> int:
        state = self.held.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = acting(state)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        state = self.held.state
        if state is None or acting(state) != player:
            return []
        return actions.legal_actions(state, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self._game().deals
        return [(i, 1.0 / deals) for i in range(deals)]

    def _apply_action(self, action: int) -> None:
        game = self._game()
        state = self.held.state
        if state is None:
            self.deal = int(action)
            self.held = _Held(rules.new_game(game.seed_base + self.deal, game.settings.options()))
            return
        seat = acting(state)
        assert seat is not None, "the game is over"
        moved = rules.apply_move(state, seat, actions.move_of(int(action))).state
        self.held = _Held(moved)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return actions.key(actions.move_of(int(action)))

    def is_terminal(self) -> bool:
        state = self.held.state
        return state is not None and rules.outcome(state) is not None

    def returns(self) -> list[float]:
        state = self.held.state
        out = None if state is None else rules.outcome(state)
        n = self._game().settings.players
        return [0.0] * n if out is None else rewards(out, self._game().settings.reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EmaraState:
        """A state ``player_id`` cannot tell from this one: its hidden parts drawn afresh."""
        state = self.held.state
        clone: EmaraState = self.clone()
        if state is None:
            return clone
        seed = int(float(probability_sampler()) * 2**53)
        view = rules.view_for(state, player_id)
        clone.held = _Held(determinize(view, random.Random(seed)))
        return clone

    def __str__(self) -> str:
        state = self.held.state
        if state is None:
            return "before the deal"
        public = rules.view_for(state, None)
        scores = ", ".join(f"p{p['seat']} {p['cp']}/{p['bp']}" for p in public["players_state"])
        return f"round {state.round} {state.phase}; CP/BP {scores}"

    def _game(self) -> EmaraGame:
        game: EmaraGame = self.get_game()
        return game


class ViewObserver:
    """A player's view as a tensor (``observe.encode``) and as a string (canonical JSON)."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(observe.size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EmaraState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = observe.encode(rules.view_for(engine, player))

    def string_from(self, state: EmaraState, player: int) -> str:
        engine = state.engine
        if engine is None:
            return ""
        view = rules.view_for(engine, player)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


pyspiel.register_game(GAME_TYPE, EmaraGame)
