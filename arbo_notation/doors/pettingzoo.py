"""The PettingZoo door: Arboretum as a PettingZoo AEC environment with action masks, ``env(players=2)``.

As PettingZoo's classic games: agents ``player_0``, ``player_1``, ... in seat order (the first
starts); each observation is a dict of ``observation``, the agent's view as doors/observation.py's
vector, and ``action_mask``, 1 for each legal action id (``ActionIds``, doors/actions.py: the
OpenSpiel door's ids), all 0 for an agent not to move. Chance is the environment's own: ``reset(seed=...)``
seeds a ``random.Random`` that shuffles each deal (the same seed, the same deals). The rewards
come at the end: each agent's score (``Game.outcome()``), and each agent's info then holds the
``scores`` and ``winners``. An illegal action raises ArboError saying why, the table unchanged.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from arbo_notation.doors.actions import ActionIds, door_config
from arbo_notation.doors.observation import ViewTensor
from arbo_notation.engine.state import Game, Setup
from arbo_notation.errors import ArboError

#: What importing the door says when PettingZoo is not installed.
NEEDS_PETTINGZOO_EXTRA = (
    "the PettingZoo door needs PettingZoo and Gymnasium, which are not installed: "
    "pip install 'arbo-notation[pettingzoo]' (or pip install '.[pettingzoo]' in arbo's checkout)"
)

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError:
    raise ArboError(NEEDS_PETTINGZOO_EXTRA) from None


def env(players: int = 2, render_mode: str | None = None) -> "ArboretumEnv":
    """A table of ``players`` (2 to 4); ``render_mode="ansi"`` renders the whole table as its line."""
    return ArboretumEnv(players, render_mode)


class ArboretumEnv(AECEnv):  # type: ignore[misc]  # PettingZoo has no types: its AECEnv is Any
    """Arboretum for 2 to 4 agents (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "arboretum_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, render_mode: str | None = None) -> None:
        super().__init__()
        if players not in (2, 3, 4):
            raise ArboError(f"a table has 2 to 4 players, not {players}")
        if render_mode not in (None, "ansi"):
            raise ArboError(f"the render mode is 'ansi' or none, not {render_mode!r}")
        self.config = door_config(players)
        self.ids = ActionIds.of(self.config)
        self.view_tensor = ViewTensor(self.ids)
        self.render_mode = render_mode
        self.possible_agents = list(self.config.players)
        self.agents = self.possible_agents[:]
        self.action_spaces = {agent: spaces.Discrete(self.ids.size) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.view_tensor.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.ids.size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._rng = random.Random()
        self.game = Game(self.config, Setup.shuffled(self.config, self._rng.getrandbits(64)))

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal, shuffled by the environment's generator (seeded again by ``seed``)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = Game(self.config, Setup.shuffled(self.config, self._rng.getrandbits(64)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.game.current_player

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's view and its action mask."""
        observation = np.zeros(self.view_tensor.size, np.float32)
        self.view_tensor.fill(self.game.view(agent), observation)
        mask = np.zeros(self.ids.size, np.int8)
        if agent == self.agent_selection and not self.game.is_over:
            mask[self.ids.legal_ids(self.game)] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play the agent's action id; at the game's end, every agent's reward is its score."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ArboError(f"{agent} is to move: an action id is due, not None")
        self.game.push(self.ids.action(int(action), self.game))
        self._cumulative_rewards[agent] = 0.0
        outcome = self.game.outcome()
        if outcome is not None:
            self.rewards = {name: float(outcome.scores[name]) for name in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {
                name: {"scores": dict(outcome.scores), "winners": list(outcome.winners)} for name in self.agents
            }
        self.agent_selection = self.game.current_player
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        """The whole table as its position's line (``render_mode="ansi"``), None otherwise."""
        return str(self.game.position()) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to close: the table is in memory."""
