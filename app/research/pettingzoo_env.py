"""Crown of Emara as a PettingZoo AEC environment: every seat an agent, Victoria inside the
engine for the solo game.

    from app.research.pettingzoo_env import env
    e = env(players=2)                # reward="score" | "win" | "rank"
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(
            obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seat = the number). An observation is a dict:
``observation`` (float32, ``observe.size()`` long: the agent's own view, docs/research.md) and
``action_mask`` (int8, ``actions.size()`` long: 1 where the action is legal for this agent now,
all 0 when it is another agent's move). The action is an index into the fixed action table
(``app.research.actions``). An illegal action raises ``ValueError`` and changes nothing.
Seeded: the same seed and the same actions give the same game.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from app import rules
from app.research import actions, observe
from app.research.match import Settings, acting, rewards, start

OBS_HIGH = 1000.0  # no count or point total of a game comes near it


class EmaraEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "emara_v0",
        "is_parallelizable": False,
    }

    def __init__(self, settings: Settings | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.settings.players)]
        obs = spaces.Box(0.0, OBS_HIGH, (observe.size(),), np.float32)
        mask = spaces.Box(0, 1, (actions.size(),), np.int8)
        self._obs_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(actions.size()) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state_: rules.GameState | None = None
        self.moves = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    # -- the AEC cycle ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` fixes everything random in it (None: the next seed of the
        environment's own stream, itself fixed by the last seed given)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(48)
        self.state_ = start(game_seed, self.settings)
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        state = self._state()
        mask = np.zeros(actions.size(), np.int8)
        if acting(state) == seat:
            mask[actions.legal_actions(state, seat)] = 1
        view = rules.view_for(state, seat)
        return {"observation": np.asarray(observe.encode(view), np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state()
        seat = self.possible_agents.index(agent)
        if action is None or int(action) not in actions.legal_actions(state, seat):
            raise ValueError(f"action {action!r} is not legal for {agent} now")
        self.state_ = rules.apply_move(state, seat, actions.move_of(int(action))).state
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = rules.outcome(self.state_)
        if outcome is not None:
            paid = rewards(outcome, self.settings.reward)
            for a in self.agents:
                self.rewards[a] = paid[self.possible_agents.index(a)]
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome}
        elif self.settings.max_moves is not None and self.moves >= self.settings.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def view(self, agent: str) -> Any:
        """The agent's own view (``rules.view_for``): what its observation encodes, as the
        engine's JSON-ready dict (for agents that read the view rather than the numbers)."""
        return rules.view_for(self._state(), self.possible_agents.index(agent))

    # -- helpers ------------------------------------------------------------------------------

    def _state(self) -> rules.GameState:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _select(self) -> None:
        seat = acting(self._state())
        if seat is None or any(self.truncations.values()):
            self.agent_selection = self.agents[0] if self.agents else ""
        else:
            self.agent_selection = self.possible_agents[seat]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        lines = [f"round {self.state_.round}, phase {self.state_.phase}, moves {self.moves}"]
        view = rules.view_for(self.state_, None)
        for p in view["players_state"]:
            lines.append(f"player_{p['seat']}: CP {p['cp']}, BP {p['bp']}, score {p['score']}")
        if view["victoria"] is not None:
            lines.append(f"Victoria: CP {view['victoria']['cp']}")
        return "\n".join(lines)

    def close(self) -> None:
        self.state_ = None


def env(render_mode: str | None = None, **settings: Any) -> EmaraEnv:
    """The environment; keyword arguments are ``Settings``' fields (players, reward, ...)."""
    return EmaraEnv(Settings(**settings), render_mode)


raw_env = env
