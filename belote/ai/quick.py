"""The quick bot: card play by a small network distilled from the exact solver (issue 27).

Its cards come from :mod:`belote.ai.network.policy` (``DecisionMethod.NETWORK``): one pass of
an MLP over the seat's features, tens of microseconds, no search and no sampled world.  The
network learned, from self-play hands of the normal bot labelled by the exact solver on the
true deal, each card's points relative to the best (``belote/ai/network/data/MODEL_CARD.md``).

Its bids in the take-or-pass auctions come from the bidding network
(:mod:`belote.ai.network.bidding`): each trump it may take with is given the gain over passing
that the expert's simulation would find, and the best is taken when it passes the expert's
margin (:data:`~belote.ai.expert.BID_MARGIN`), else the seat passes (saying "aspetto" only
with an ace, as the normal bot).  Everything else is the normal bot's
(:class:`~belote.ai.heuristic.HeuristicBot`): the contract auctions' bids, declarations and
table talk, the belote announcement (always, with the card, as the normal bot), the cut.
Like every bot level, it plays the king before the queen of a belote where the rules want
the king first (:func:`~belote.ai.belote_order.king_before_queen`): the network's labels
count card points only, not the belote's 20.

Four seats only (the network's features are two partnerships of two): a table of fewer
seats is refused with a :class:`~belote.errors.BeloteError` naming the presets it plays.
"""

from __future__ import annotations

import time

from belote.ai.belote_order import king_before_queen
from belote.ai.bidding import pass_word
from belote.ai.decision import Decision, DecisionMethod, elapsed_ms
from belote.ai.expert import BID_MARGIN
from belote.ai.heuristic import HeuristicBot
from belote.ai.network.bidding import BidPolicy, default_bid_policy, reads
from belote.ai.network.policy import Policy, check_four_seats, default_policy
from belote.engine import actions as A
from belote.engine.events import Event
from belote.engine.observation import Observation
from belote.engine.state import Phase
from belote.rules.base import Rules


class QuickBot:
    def __init__(self, seed: int | None = None, name: str = "quick",
                 policy: Policy | None = None, bid_policy: BidPolicy | None = None) -> None:
        self.name = name
        self._heuristic = HeuristicBot(seed, name=name)
        # The shipped networks are read once per process and shared: a bot is cheap to make.
        self._policy = policy if policy is not None else default_policy()
        self._bid_policy = bid_policy if bid_policy is not None else default_bid_policy()

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
        if observation.phase == Phase.BIDDING and reads(observation.ruleset):
            bid = self._bid(observation)
            if bid is not None:
                return Decision(bid, DecisionMethod.NETWORK, None, elapsed_ms(started))
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

    def _bid(self, observation: Observation) -> int | None:
        """The bidding network's bid, or None where it has none to make (no trump to take
        with, or the seat has to say something that is neither a bid nor a pass)."""
        legal = observation.legal_actions
        if observation.turned is None:
            return None
        gains = self._bid_policy.gains(observation)
        if not gains:
            return None
        best = max(gains, key=gains.__getitem__)
        if gains[best] > BID_MARGIN or (A.PASS not in legal and A.ASPETTO not in legal):
            return best  # worth it, or no pass allowed (a turned jack taken at once)
        return pass_word(observation)
