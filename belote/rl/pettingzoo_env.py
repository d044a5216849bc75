"""A PettingZoo AEC environment over the engine (``belote_v0``), as PettingZoo's chess
environment adapts python-chess.  Needs the ``rl`` extra (pettingzoo, gymnasium).

Agents ``player_0`` .. ``player_3`` are seats 0..3 (partners 0+2 and 1+3).  Each observation
is ``{"observation": float32 tensor, "action_mask": int8 over NUM_ACTIONS ids}``: the seat's
information-state tensor by default, or its observation tensor (``observation="observation"``)
(:mod:`belote.rl.tensors`).  Deals are chance events the environment draws itself from the
seed given to ``reset``.

Rewards (``reward=``): ``"hand"`` gives every seat its team's score minus the opponents' each
time a hand is scored (divided by ``reward_scale``); ``"match"`` gives +1/-1 at the match's end.
``max_hands`` ends an episode early (truncation) after that many hands were scored.

A belote is announced with its card (ids 32..63).  The engine's late announcement (id 72) is
offered only when its holder is also the player to move, since an AEC environment has one
acting agent at a time.

``env()`` adds PettingZoo's standard wrappers (an illegal move ends the episode with -1 for its
author, bounds and call-order checks); ``raw_env`` raises ``IllegalActionError`` on one and
changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from belote.engine import CHANCE, Game
from belote.rl.actions import NUM_ACTIONS, legal_action_mask
from belote.rl.returns import hand_returns
from belote.rl.tensors import (
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    check_four_seats,
    information_state_tensor,
    observation_tensor,
)
from belote.rules import find_preset

REWARDS = ("hand", "match")
OBSERVATIONS = ("information_state", "observation")
# Features are counts and one-hots in 0..1 and scores scaled by the target (a match can end a
# little past it): 10 bounds them all with room to spare.
OBSERVATION_HIGH = 10.0


def env(**kwargs: Any) -> AECEnv:
    """``raw_env`` in PettingZoo's standard wrappers."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name; AECEnv is untyped
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [], "name": "belote_v0", "is_parallelizable": False,
    }

    def __init__(self, preset: str = "classic", flags: dict[str, Any] | None = None,
                 reward: str = "hand", reward_scale: float = 1.0,
                 observation: str = "information_state", max_hands: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        if reward_scale <= 0:
            raise ValueError("reward_scale must be positive")
        if max_hands is not None and max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        if render_mode is not None:
            raise ValueError("belote_v0 has no render modes")
        self.rules = find_preset(preset).with_flags(**(flags or {}))
        check_four_seats(self.rules.players)  # four agents, two teams
        self.reward_mode = reward
        self.reward_scale = reward_scale
        self.max_hands = max_hands
        self.render_mode = render_mode
        self._tensor = (information_state_tensor if observation == "information_state"
                        else observation_tensor)
        size = INFORMATION_STATE_SIZE if observation == "information_state" else OBSERVATION_SIZE
        self.possible_agents = [f"player_{seat}" for seat in range(4)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=OBSERVATION_HIGH, shape=(size,),
                                          dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS)
                              for agent in self.possible_agents}
        self._rng = random.Random()
        self.game = Game(self.rules)
        self._hands = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        if agent == self.agent_selection and not self.game.is_terminal():
            mask = legal_action_mask(self.game, seat)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self._tensor(self.game, seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = Game(self.rules, first_dealer=self._rng.randrange(4))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._hands = 0
        self._deal()
        self.agent_selection = self.possible_agents[self.game.current_player()]

    def _deal(self) -> None:
        while self.game.current_player() == CHANCE:
            deck = list(range(32))
            self._rng.shuffle(deck)
            self.game.deal(deck)

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        events = self.game.apply(int(action), seat)
        self._cumulative_rewards[agent] = 0.0
        if self.reward_mode == "hand":
            reward = hand_returns(events, self.reward_scale)
        else:
            reward = np.array(self.game.returns(), dtype=np.float32)
        self.rewards = {a: float(reward[i]) for i, a in enumerate(self.possible_agents)}
        self._hands += sum(1 for e in events if type(e).__name__ == "HandScored")
        if self.game.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_hands is not None and self._hands >= self.max_hands:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._deal()
            self.agent_selection = self.possible_agents[self.game.current_player()]
        self._accumulate_rewards()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None
