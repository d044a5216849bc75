"""The easy level: the heuristic's conventions, but it bids cautiously and, now and then,
plays a random legal card instead of its best one, as a beginner would; it never breaks a
rule."""

from __future__ import annotations

import random

from belote.ai.belote_order import king_before_queen
from belote.ai.decision import DecisionMethod
from belote.ai.heuristic import HeuristicBot
from belote.engine import actions as A
from belote.engine.observation import Observation

EASY_SLIP = 0.25  # how often an easy bot plays a random legal card
EASY_BOLDNESS = -1.0  # easy bots bid below the heuristic thresholds


class EasyBot(HeuristicBot):
    def __init__(self, seed: int | None = None, name: str = "easy") -> None:
        super().__init__(seed, name=name, boldness=EASY_BOLDNESS)
        self._rng = random.Random(seed)

    def _pick(self, observation: Observation) -> tuple[int, DecisionMethod]:
        legal = observation.legal_actions
        plays = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE]
        if plays and len(plays) > 1 and self._rng.random() < EASY_SLIP:
            # a slip of strength, never of the rules' bonus: the king-first belote is kept
            slip = king_before_queen(observation, self._rng.choice(plays), plays)
            announce = A.PLAY_ANNOUNCE_BASE + slip  # and announced, as the heuristic does
            return (announce if announce in legal else slip), DecisionMethod.RANDOM
        return super()._pick(observation)
