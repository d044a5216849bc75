"""A bot that plays a uniformly random legal action: the baseline and the fuzzer."""

from __future__ import annotations

import random
import time

from belote.ai.decision import Decision, DecisionMethod, elapsed_ms, only_move
from belote.engine.events import Event
from belote.engine.observation import Observation


class RandomBot:
    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def notify(self, event: Event) -> None:
        pass

    def choose(self, observation: Observation) -> int:
        return self._rng.choice(observation.legal_actions)

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        started = time.perf_counter()
        action = self.choose(observation)
        method = only_move(observation, DecisionMethod.RANDOM)
        return Decision(action, method, None, elapsed_ms(started))
