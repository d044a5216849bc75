"""A bidder learned from recorded auctions: P(bid | hand, auction so far) from a small network.

Fitted to colver-bid's auctions recorded in self-play (``scripts/record_colver_auctions.py``,
``scripts/train_colver_bids.py``): the model knows colver's bidder only through what it bid
with which hands, never through its code.  A small MLP (:class:`~belote.ai.network.mlp.Mlp`,
one output) scores each legal bid from :func:`bid_rows`; P(bid) is the softmax of the
scores over the legal bids, with a small share (:data:`SLIP`) spread over them all.  A
conditional logit whose utility is a network: a hand's opening level is a threshold of its
strength, which no utility linear in the hand's features draws sharply (a linear one made
colver-bid's bid its likeliest 80 % of the time on held-out auctions, this one 99 %).

What a bid's row says (:data:`INPUTS` numbers):

* the hand as a bidder with the bid's suit as trump sees it (:func:`suit_features`: the
  suit of the contract; for a double or redouble the standing contract's suit; zeros for a
  pass);
* the kind of bid (pass, contract, double, redouble), the contract's level (one-hot) and
  how many levels it jumps;
* the auction: the standing contract's level (one-hot, or none), whose it is (no one,
  partner, an opponent), whether it is doubled, whether the bid's suit is the standing
  one's, the suit this seat and its partner named last, and how many bids were made.

The weights (an ``.npz``, a few thousand numbers) ship with the package
(``belote/ai/network/data/colver_bids.npz``).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import overload

import numpy as np
import numpy.typing as npt

from belote.ai.bidding import suit_value
from belote.ai.network.mlp import Matrix, Mlp
from belote.cards import CardSet
from belote.engine import actions as A
from belote.engine.bidding.conventions import standing
from belote.engine.observation import Observation
from belote.errors import BeloteError

HAND = 17  # per suit: see suit_features
LEVELS = 10  # the coinche table's levels, 80 .. 160 and capot
# The share of bids taken as a slip, any legal bid alike: a bid the network finds all but
# impossible stays evidence, never a fact (held out, the least likely bid colver-bid made
# scored log 1e-4.2 by the network alone; the slip costs 0.001 of log-loss per bid).
SLIP = 1e-3
KINDS = 4  # pass, contract, double, redouble
_KIND = HAND
_LEVEL = _KIND + KINDS
_JUMP = _LEVEL + LEVELS
_STANDING = _JUMP + 1  # LEVELS + 1: none, then each level
_WHOSE = _STANDING + LEVELS + 1  # nobody's, partner's, an opponent's
_DOUBLED = _WHOSE + 3
_SAME_SUIT = _DOUBLED + 1
_MINE_BEFORE = _SAME_SUIT + 1  # the bid's suit is the one this seat named last
_PARTNERS = _MINE_BEFORE + 1  # ... the one its partner named last
_I_BID = _PARTNERS + 1  # this seat has named a contract before
_PARTNER_BID = _I_BID + 1
_TURN = _PARTNER_BID + 1  # bids so far / 8
INPUTS = _TURN + 1


Probabilities = npt.NDArray[np.float64]


@overload
def slipped(fitted: float, bids: int) -> float: ...
@overload
def slipped(fitted: Probabilities, bids: npt.NDArray[np.int64]) -> Probabilities: ...
def slipped(fitted: float | Probabilities, bids: int | npt.NDArray[np.int64],
            ) -> float | Probabilities:
    """P(bid) as the expert reads it: the network's ``fitted`` probability among ``bids``
    legal bids, with :data:`SLIP` spread over them all (one home: the trainer's reports
    read it too)."""
    return (1.0 - SLIP) * fitted + SLIP / bids


@lru_cache(maxsize=8192)
def suit_features(hand: CardSet) -> Matrix:
    """Per suit as trump (rows), the hand as its bidder sees it: the heuristic's value of
    the suit, its length, which of its eight ranks it holds, the other suits' aces, tens,
    ace-ten pairs and kings, the other suits that are void and singleton, the length
    squared."""
    out = np.zeros((4, HAND), dtype=np.float32)
    suits = [(hand >> (8 * s)) & 0xFF for s in range(4)]
    for s, cards in enumerate(suits):
        length = cards.bit_count()
        others = [suits[t] for t in range(4) if t != s]
        row = out[s]
        row[0] = suit_value(hand, s) / 10.0
        row[1] = length
        for rank in range(8):
            row[2 + rank] = cards >> rank & 1
        row[10] = sum(o >> 7 & 1 for o in others)
        row[11] = sum(o >> 3 & 1 for o in others)
        row[12] = sum(o >> 7 & o >> 3 & 1 for o in others)
        row[13] = sum(o >> 6 & 1 for o in others)
        row[14] = sum(o == 0 for o in others)
        row[15] = sum(o.bit_count() == 1 for o in others)
        row[16] = length * length / 8.0
    out.setflags(write=False)
    return out


def _last_suit(bids: tuple[tuple[int, int], ...], seat: int) -> int:
    for who, action in reversed(bids):
        if who == seat and A.CONTRACT_BASE <= action < A.CONTRACT_END:
            return A.contract_suit(action)
    return -1


def bid_rows(hand: CardSet, seat: int, bids: tuple[tuple[int, int], ...],
             levels: tuple[int, ...], legal: tuple[int, ...]) -> Matrix:
    """One row per legal bid (see the module doc), for a four-seat auction on a table of
    at most :data:`LEVELS` levels."""
    auction, suits = _auction_rows(seat, bids, levels, legal)
    rows = auction.copy()
    named = suits >= 0
    rows[named, :HAND] = suit_features(hand)[suits[named]]
    return rows


def view_rows(view: Observation) -> Matrix:
    """:func:`bid_rows` of a seat's view of an auction (its hand, the bids so far, its
    legal bids): what the model reads at a table."""
    rules = view.ruleset
    if rules is None or rules.auction is None or view.seat is None:
        raise BeloteError("the learned bidder reads a seat's view of an auction")
    return bid_rows(view.hand, view.seat, view.bids, rules.auction.levels, view.legal_actions)


@lru_cache(maxsize=4096)
def _auction_rows(seat: int, bids: tuple[tuple[int, int], ...], levels: tuple[int, ...],
                  legal: tuple[int, ...]) -> tuple[Matrix, npt.NDArray[np.int64]]:
    """The rows without the hand, and which suit's hand features each row takes (-1:
    none).  Kept: the expert weighs many worlds' hands against the same auction."""
    if len(levels) > LEVELS:
        raise BeloteError(f"the learned bidder knows at most {LEVELS} levels")
    now = standing(bids, levels)
    rows = np.zeros((len(legal), INPUTS), dtype=np.float32)
    suits = np.full(len(legal), -1, dtype=np.int64)
    rows[:, _TURN] = len(bids) / 8.0
    mine, partners = _last_suit(bids, seat), _last_suit(bids, (seat + 2) % 4)
    rows[:, _I_BID] = mine >= 0
    rows[:, _PARTNER_BID] = partners >= 0
    index, suit = -1, -1
    if now is None:
        rows[:, _WHOSE] = 1.0
        rows[:, _STANDING] = 1.0
    else:
        bidder, index, suit, doubled = now
        rows[:, _WHOSE + (1 if bidder % 2 == seat % 2 else 2)] = 1.0
        rows[:, _STANDING + 1 + index] = 1.0
        rows[:, _DOUBLED] = doubled > 0
    for i, action in enumerate(legal):
        row = rows[i]
        if A.CONTRACT_BASE <= action < A.CONTRACT_END:
            level, trump = A.contract_level_index(action), A.contract_suit(action)
            suits[i] = trump
            row[_KIND + 1] = 1.0
            row[_LEVEL + level] = 1.0
            row[_JUMP] = level - index - 1
            row[_SAME_SUIT] = trump == suit
            row[_MINE_BEFORE] = trump == mine
            row[_PARTNERS] = trump == partners
        elif action in (A.CONTRO, A.SURCONTRO) and suit >= 0:
            suits[i] = suit
            row[_KIND + (2 if action == A.CONTRO else 3)] = 1.0
        else:
            row[_KIND] = 1.0
    rows.setflags(write=False)
    suits.setflags(write=False)
    return rows, suits


class NetworkBidder(Mlp):
    """P(bid | hand, auction) under a fitted network; :meth:`log_prob` is what the expert's
    model of a seat reads (:mod:`belote.ai.models.seats`)."""

    def check_shape(self, inputs: int, outputs: int) -> None:
        if inputs != INPUTS or outputs != 1:
            raise BeloteError(f"a bidding network reads {INPUTS} numbers and gives one "
                              f"score; this one reads {inputs} and gives {outputs}")

    def scores(self, view: Observation) -> Matrix:
        """One score per legal bid of ``view`` (its seat's hand, the auction so far)."""
        return self.outputs(view_rows(view))[:, 0]

    def log_prob(self, view: Observation, action: int) -> float:
        """log P(``action`` | the bidder's hand and the auction in ``view``)."""
        legal = view.legal_actions
        if action not in legal:
            raise ValueError(f"bid {action} is not among the legal ones")
        scores = self.scores(view)
        weights = np.exp(scores - scores.max())
        return math.log(slipped(float(weights[legal.index(action)] / weights.sum()),
                                len(legal)))

    def choose(self, view: Observation) -> int:
        """The bid the model finds likeliest."""
        return view.legal_actions[int(np.argmax(self.scores(view)))]


@cache
def colver_bidder() -> NetworkBidder:
    """The network fitted to colver-bid's recorded auctions (package data)."""
    return NetworkBidder.shipped("colver_bids.npz")
