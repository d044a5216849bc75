"""A bot that says the conventions' words at random: "passo" or "aspetto" whatever its aces,
"ancora" or "alzo" whatever its cards of the suit, and its first discard of a hand at random
among its discards (a signal that may be false).  Otherwise it plays as the normal bot.

It is a person the conventions do not bind (RULES.md: passo and aspetto are said truthfully
by bots; nothing obliges anyone else).  The sampler must never fail on its positions (the
conventions are evidence, not facts: :mod:`belote.engine.convention_evidence`), and a model
that trusts the conventions must cost nothing against it (issue 23).
"""

from __future__ import annotations

import random
import time

from belote.ai.decision import Decision, DecisionMethod, elapsed_ms, only_move
from belote.ai.heuristic import HeuristicBot
from belote.engine import actions as A
from belote.engine.bidding import conventions as C
from belote.engine.events import ALL_TRUMP, NO_TRUMP, Event
from belote.engine.observation import Observation
from belote.engine.signals import has_signalled

PASS_WORDS = (A.PASS, A.ASPETTO)
SUPPORT_CALLS = (A.ANCORA, A.ALZO)


class LiarBot:
    def __init__(self, seed: int | None = None, name: str = "liar") -> None:
        self.name = name
        self._rng = random.Random(seed)
        self._normal = HeuristicBot(seed, name="normal")

    def notify(self, event: Event) -> None:
        self._normal.notify(event)

    def choose(self, observation: Observation) -> int:
        return self._pick(observation)[0]

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        started = time.perf_counter()
        action, method = self._pick(observation)
        return Decision(action, only_move(observation, method), None, elapsed_ms(started))

    def _pick(self, obs: Observation) -> tuple[int, DecisionMethod]:
        action = self._normal.choose(obs)
        legal = obs.legal_actions
        for words in (PASS_WORDS, SUPPORT_CALLS, tuple(C.RAISES)):
            if action in words:
                said = [a for a in words if a in legal]
                return self._rng.choice(said), DecisionMethod.RANDOM
        if A.is_play(action) and obs.trick and obs.seat is not None:
            lie = self._random_discard(obs)
            if lie is not None:
                announce = A.PLAY_ANNOUNCE_BASE + lie
                return (announce if announce in legal else lie), DecisionMethod.RANDOM
        return action, DecisionMethod.RULE

    def _random_discard(self, obs: Observation) -> int | None:
        """A random discard for the seat's first discard of the hand where signals are read
        (a signal said at random), else None."""
        rules = obs.ruleset
        if (rules is None or rules.discard_signals == "off" or not rules.partners
                or obs.trump is None or obs.seat is None or has_signalled(obs, obs.seat)):
            return None
        led = obs.trick[0][1] >> 3
        plays = [a for a in obs.legal_actions if A.is_play(a) and a < A.PLAY_ANNOUNCE_BASE]
        trump = obs.trump if obs.trump not in (NO_TRUMP, ALL_TRUMP) else -1
        discards = [c for c in plays if c >> 3 not in (led, trump)]
        if not discards or len(discards) < len(plays):
            return None  # following or trumping: no discard to lie with
        return self._rng.choice(discards)
