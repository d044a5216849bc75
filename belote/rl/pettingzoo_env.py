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

Rendering (``render_mode=``): ``"ansi"`` makes ``render()`` return what happened in the last
``step`` (or ``reset``), one sentence a line: the bids, the cards, the tricks, the scores, in
the same words the terminal table and the room say (:func:`belote.i18n.describe_event`), in
``language`` ("en" by default, or "it", "es", "fr"); ``"human"`` prints the same text and
returns None; with no render mode ``render()`` warns and returns None.  The sentences are a
spectator's by default: public events only, no hand.  ``render_seat=k`` speaks as seat k
hears the game instead (its own cards, "you" for its actions), never another seat's cards.

``state()`` is the global state for a centralised critic during training
(:func:`belote.rl.tensors.state_tensor`, in ``state_space``): it holds every hand, so it must
never reach a policy that acts.

``env()`` adds PettingZoo's standard wrappers (an illegal move ends the episode with -1 for its
author, bounds and call-order checks); ``raw_env`` raises ``IllegalActionError`` on one and
changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from belote.engine import CHANCE, Game
from belote.engine.events import Event
from belote.i18n import describe_event
from belote.i18n.catalog import check_language
from belote.rl.actions import NUM_ACTIONS, legal_action_mask
from belote.rl.returns import hand_returns
from belote.rl.tensors import (
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    STATE_SIZE,
    check_four_seats,
    information_state_tensor,
    observation_tensor,
    state_tensor,
)
from belote.rules import find_preset

REWARDS = ("hand", "match")
OBSERVATIONS = ("information_state", "observation")
RENDER_MODES = ("ansi", "human")
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
        "render_modes": list(RENDER_MODES), "name": "belote_v0", "is_parallelizable": False,
    }

    def __init__(self, preset: str = "classic", flags: dict[str, Any] | None = None,
                 reward: str = "hand", reward_scale: float = 1.0,
                 observation: str = "information_state", max_hands: int | None = None,
                 render_mode: str | None = None, language: str = "en",
                 render_seat: int | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        if reward_scale <= 0:
            raise ValueError("reward_scale must be positive")
        if max_hands is not None and max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, "
                             f"not {render_mode!r}")
        check_language(language)
        if render_seat is not None and (type(render_seat) is not int
                                        or not 0 <= render_seat < 4):
            raise ValueError(f"render_seat must be None (a spectator) or a seat 0..3, "
                             f"not {render_seat!r}")
        self.rules = find_preset(preset).with_flags(**(flags or {}))
        check_four_seats(self.rules.players)  # four agents, two teams
        self.reward_mode = reward
        self.reward_scale = reward_scale
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.language = language
        self.render_seat = render_seat
        self._events: list[Event] = []  # what the last step or reset did, for render()
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
        self.state_space = spaces.Box(low=0.0, high=OBSERVATION_HIGH, shape=(STATE_SIZE,),
                                      dtype=np.float32)
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
        self._events = self._deal()
        self.agent_selection = self.possible_agents[self.game.current_player()]

    def _deal(self) -> list[Event]:
        events: list[Event] = []
        while self.game.current_player() == CHANCE:
            deck = list(range(32))
            self._rng.shuffle(deck)
            events += self.game.deal(deck)
        return events

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._events = []
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        events = self.game.apply(int(action), seat)
        self._events = events
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
            self._events = events + self._deal()  # the next hand's deal, said too
            self.agent_selection = self.possible_agents[self.game.current_player()]
        self._accumulate_rewards()

    def state(self) -> np.ndarray:
        """The global state (every hand: training only), in ``state_space``."""
        return state_tensor(self.game)

    def render(self) -> str | None:
        """The last step's (or reset's) events, one sentence a line (see the module's doc)."""
        if self.render_mode is None:
            logger.warn("render() was called without a render mode: pass render_mode="
                        f"{RENDER_MODES} to the environment")
            return None
        lines = [text for event in self._events
                 if (text := describe_event(event, self.language, self.render_seat,
                                            rules=self.rules)) is not None]
        text = "\n".join(lines)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        return None
