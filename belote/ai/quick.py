"""The quick bot: card play by a small network distilled from the exact solver (issue 27).

Its cards come from :mod:`belote.ai.network.policy` (``DecisionMethod.NETWORK``): one pass of
an MLP over the seat's features, tens of microseconds, no search and no sampled world.  The
network learned, from self-play hands of the normal bot labelled by the exact solver on the
true deal, each card's points relative to the best (``belote/ai/network/data/MODEL_CARD.md``).

Everything else is the normal bot's (:class:`~belote.ai.heuristic.HeuristicBot`): bids,
declarations and table talk, the belote announcement (always, with the card, as the normal
bot), the cut.  A bidding network is a later step.  Like every bot level, it plays the king
before the queen of a belote where the rules want the king first
(:func:`~belote.ai.belote_order.king_before_queen`): the network's labels count card points
only, not the belote's 20.

Four seats only (the network's features are two partnerships of two): a table of fewer
seats is refused with a :class:`~belote.errors.BeloteError` naming the presets it plays.
"""

from __future__ import annotations

import time

from belote.ai.belote_order import king_before_queen
from belote.ai.decision import Decision, DecisionMethod, elapsed_ms
from belote.ai.heuristic import HeuristicBot
from belote.ai.network.policy import Policy, check_four_seats, default_policy
from belote.engine import actions as A
from belote.engine.events import Event
from belote.engine.observation import Observation
from belote.engine.state import Phase
from belote.rules.base import Rules


class QuickBot:
    def __init__(self, seed: int | None = None, name: str = "quick",
                 policy: Policy | None = None) -> None:
        self.name = name
        self._heuristic = HeuristicBot(seed, name=name)
        # The shipped network is read once per process and shared: a bot is cheap to make.
        self._policy = policy if policy is not None else default_policy()

    def notify(self, event: Event) -> None:
        pass

    def check_table(self, rules: Rules) -> None:
        """Refuse (BeloteError, naming the presets it plays) a table it cannot sit at:
        asked before any play (:func:`belote.ai.registry.check_seatable`)."""
        check_four_seats(rules)

    def choose(self, observation: Observation) -> int:
        return self.decide(observation, None).action

    def decide(self, observation: Observation, deadline: float | None) -> Decision:
        """The network's card in the card play, the normal bot's action otherwise
        (``deadline`` is never near: no search)."""
        started = time.perf_counter()
        check_four_seats(observation.ruleset)
        legal = observation.legal_actions
        plays = sorted({a & 31 for a in legal if A.is_play(a)})
        if observation.phase != Phase.PLAYING or not plays:
            decision = self._heuristic.decide(observation, deadline)
            return Decision(decision.action, decision.method, None, elapsed_ms(started))
        if len(plays) < len(legal):
            # Cards beside something else (a declaration, the ottava, a request to show):
            # the normal bot's word if it has one to say, else the network's card.
            decision = self._heuristic.decide(observation, deadline)
            if not A.is_play(decision.action):
                return Decision(decision.action, decision.method, None, elapsed_ms(started))
        if len(plays) == 1:
            card, method = plays[0], DecisionMethod.ONLY_MOVE
        else:
            card = king_before_queen(observation, self._policy.best_card(observation), plays)
            method = DecisionMethod.NETWORK
        announce = A.play_announcing(card)
        action = announce if announce in legal else card  # belote said with the card
        return Decision(action, method, None, elapsed_ms(started))
