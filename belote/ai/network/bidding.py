"""The bidding network: take or pass, and with which trump, from simulated contract values.

For the take-or-pass auctions (five cards and a turned card: ``Rules.bidding ==
"take_or_pass"``, four seats; the quick bot uses it where no senza or tutte may be called,
see :func:`reads`), a small MLP reads the bidder's view (:func:`bid_features`)
and predicts, for each trump the seat could take with, what taking it is worth to the
seat's side against passing: the hand's score, ours minus theirs, as the expert simulates it
(``scripts/train_bidding.py``: whole deals drawn around the bidder's five cards, each played
out by the exact solver with that trump, the score counted by the rules).  The quick bot
takes the candidate whose predicted gain passes the expert's margin
(:data:`belote.ai.expert.BID_MARGIN`), else passes (:mod:`belote.ai.quick`).

Suits are *canonical* as in :mod:`belote.ai.network.features`, the turned card's suit first
(so one turned suit's experience serves the other three).  The six outputs are the
canonical suits 0..3, no trump, all trump.  Contract auctions (coinche, valdostana) are not
read: their bids stay the normal bot's.

| name | size | meaning |
|---|---|---|
| ``hand`` | 32 | the bidder's five cards (canonical) |
| ``turned`` | 8 | the turned card's rank (its suit is canonical suit 0) |
| ``order`` | 4 | one-hot: the bidder's place in the bidding (0: the dealer's left) |
| ``round`` | 2 | one-hot: first or second round |
| ``aspetto`` | 4 | relative seats that said "aspetto" (a pass that, by convention, holds an ace) |
| ``rules`` | 6 | allow_senza, allow_tutte, declarations, deal_rest_from_taker, |
| | | senza_override, belote_king_first (the rules' flags that change a bid's worth) |
| ``normal`` | 7 | one-hot: the normal bot's bid (pass, canonical suits 0..3, senza, tutte) |
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from belote.ai.heuristic import HeuristicBot
from belote.ai.network.features import SUIT_ORDER, canonical_mask
from belote.ai.network.mlp import Mlp
from belote.engine import actions as A
from belote.engine.observation import Observation
from belote.errors import BeloteError
from belote.rules.base import Rules

TRUMPS = 6  # canonical suits 0..3, no trump (4), all trump (5)
BID_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 32),
    ("turned", 8),
    ("order", 4),
    ("round", 2),
    ("aspetto", 4),
    ("rules", 6),
    ("normal", 7),
)
BID_SIZE = sum(size for _, size in BID_LAYOUT)

# The normal bot asked for its bid (it draws no random number in the bidding).
_NORMAL = HeuristicBot(0, name="normal")


def reads(rules: Rules | None) -> bool:
    """Whether the quick bot bids by the network at this table: a take-or-pass auction at
    four seats with no senza or tutte to call.  Where those may be called (italian) the
    network's bids cost points in the arena (-9.5 +- 2.3 a deal against the normal bot over
    4,000 pairs, against -0.1 with the normal bot's bids), so those auctions keep the normal
    bot's bids; the training data still holds them (``labelled``)."""
    return labelled(rules) and rules is not None and not (rules.allow_senza
                                                          or rules.allow_tutte)


def labelled(rules: Rules | None) -> bool:
    """Whether ``scripts/train_bidding.py`` labels this table's auctions (and
    :func:`bid_features` reads them): take-or-pass, four seats."""
    return rules is not None and rules.players == 4 and rules.bidding == "take_or_pass"


def candidate_trump(action: int, turned_suit: int) -> int | None:
    """The canonical trump (0..5) a bid takes with, or None if ``action`` takes nothing."""
    order = SUIT_ORDER[turned_suit]
    if action == A.TAKE:
        return 0
    if A.NAME_SUIT_BASE <= action < A.NAME_SUIT_BASE + 4:
        return order.index(action - A.NAME_SUIT_BASE)
    if action == A.SENZA:
        return 4
    if action == A.TUTTE:
        return 5
    return None


def bid_features(obs: Observation) -> npt.NDArray[np.float32]:
    """The :data:`BID_SIZE` float32 vector (:data:`BID_LAYOUT`) of a bidder's view in a
    take-or-pass auction (a turned card on the table)."""
    seat, turned, rules = obs.seat, obs.turned, obs.ruleset
    if seat is None or turned is None or not labelled(rules):
        raise ValueError("bid_features read a seat's view in a four-seat take-or-pass auction")
    assert rules is not None
    suit = turned >> 3
    out = np.zeros(BID_SIZE, dtype=np.float32)
    hand = canonical_mask(obs.hand, suit)
    out[:32] = np.unpackbits(np.array([hand], dtype="<u4").view(np.uint8), bitorder="little")
    at = 32
    out[at + (turned & 7)] = 1.0
    at += 8
    out[at + (seat - obs.dealer - 1) % 4] = 1.0
    at += 4
    out[at + (1 if len(obs.bids) >= 4 else 0)] = 1.0
    at += 2
    for who, action in obs.bids:
        if action == A.ASPETTO:
            out[at + (who - seat) % 4] = 1.0
    at += 4
    flags = (rules.allow_senza, rules.allow_tutte, rules.declarations is not None,
             rules.deal_rest_from_taker, rules.senza_override, rules.belote_king_first)
    for k, flag in enumerate(flags):
        out[at + k] = float(flag)
    at += 6
    advice = candidate_trump(_NORMAL.choose(obs), suit)
    out[at + (0 if advice is None else 1 + advice)] = 1.0
    return out


class BidPolicy(Mlp):
    """The bidding network: :data:`BID_SIZE` features in, :data:`TRUMPS` gains out."""

    def check_shape(self, inputs: int, outputs: int) -> None:
        if inputs != BID_SIZE or outputs != TRUMPS:
            raise BeloteError(f"a bidding network reads {BID_SIZE} features and writes "
                              f"{TRUMPS} trumps, not {inputs} and {outputs}")

    def gains(self, observation: Observation) -> dict[int, float]:
        """Each legal taking bid of ``observation`` and its predicted gain over passing
        (the hand's score, ours minus theirs)."""
        turned = observation.turned
        if turned is None:
            raise BeloteError("the bidding network reads a take-or-pass auction only")
        out = self.outputs(bid_features(observation))
        found: dict[int, float] = {}
        for action in observation.legal_actions:
            trump = candidate_trump(action, turned >> 3)
            if trump is not None:
                found[action] = float(out[trump])
        return found


@cache
def default_bid_policy() -> BidPolicy:
    """The shipped bidding network (``data/bidding.npz``), read once per process."""
    return BidPolicy.shipped("bidding.npz")
