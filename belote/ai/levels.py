"""Bot levels a table host chooses per seat: easy, normal, expert.

* ``normal``: the heuristic bot, a decent club player with the seed's conventions (mossa
  Casaro, the 10 on partner's ace, no trumping of partner's winning trick).
* ``easy``: the same conventions, but it bids cautiously and, now and then, plays a random
  legal card instead of its best one, as a beginner would; it never breaks a rule.
* ``expert``: information-set search over the exact solver, bidding by simulation
  (:mod:`belote.ai.expert`).
"""

from __future__ import annotations

import random

from belote.ai import plugins
from belote.ai.heuristic import HeuristicBot
from belote.engine import actions as A
from belote.engine.observation import Observation

EASY_SLIP = 0.25  # how often an easy bot plays a random legal card
EASY_BOLDNESS = -1.0  # easy bots bid below the heuristic thresholds


class EasyBot(HeuristicBot):
    def __init__(self, seed: int | None = None, name: str = "easy") -> None:
        super().__init__(seed, name=name, boldness=EASY_BOLDNESS)
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> int:
        legal = observation.legal_actions
        plays = [a for a in legal if a < A.PLAY_ANNOUNCE_BASE]
        if plays and len(plays) > 1 and self._rng.random() < EASY_SLIP:
            return self._rng.choice(plays)
        return super().choose(observation)


# The room's levels: its own three, then the bots other installed packages declare as
# plug-ins (not this package's own entry points: colver's agents play in the arena only).
OWN_LEVELS = ("easy", "normal", "expert")
LEVELS = (*OWN_LEVELS, *plugins.room_plugin_names())
