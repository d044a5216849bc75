"""A bidder learned from recorded auctions: P(bid | hand, auction so far), a conditional logit.

Fitted to colver-bid's auctions recorded in self-play (``scripts/record_colver_auctions.py``,
``scripts/train_colver_bids.py``): the model knows colver's bidder only through what it bid
with which hands, never through its code.  Each legal bid ``a`` scores ``w . phi(a)`` and
P(a) is the softmax over the legal bids; passing scores 0 (the reference).  ``phi``:

* a contract in suit ``s`` at level ``L`` (``Lz = (L - 80) / 10``): the hand's features in
  ``s`` (:func:`suit_features`) times each of ``1, Lz, raise, raise * Lz, capot``, then the
  hand-free terms ``1, Lz, Lz^2, jump, raise, over the opponents, over partner in another
  suit, capot``;
* a double (contro): the hand's features in the opponents' suit, ``1``, their level's Lz;
* a redouble (surcontro): the features in our suit, ``1``.

The weights (about 60) are package data (``data/colver_bids.json``), small.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from belote.ai.bidding import suit_value
from belote.cards import ACES, SUIT_MASKS, CardSet, Rank
from belote.engine import actions as A
from belote.engine.observation import Observation

HAND = 7  # features per suit
GROUPS = 5  # 1, Lz, raise, raise * Lz, capot
CONTEXT = 8
CONTRO = HAND + 2
SURCONTRO = HAND + 1
DIMENSION = GROUPS * HAND + CONTEXT + CONTRO + SURCONTRO


def suit_features(hand: CardSet, suit: int) -> tuple[float, ...]:
    """The hand as a bidder with ``suit`` as trump sees it: the heuristic's value of the
    suit, its length, its Jack, 9, Ace and 10, and the aces of the other suits."""
    cards = hand & SUIT_MASKS[suit]
    base = suit * 8
    return (suit_value(hand, suit) / 10.0, float(cards.bit_count()),
            float(cards >> (base + Rank.JACK) & 1), float(cards >> (base + Rank.NINE) & 1),
            float(cards >> (base + Rank.ACE) & 1), float(cards >> (base + Rank.TEN) & 1),
            float((hand & ACES & ~SUIT_MASKS[suit]).bit_count()))


@dataclass(frozen=True)
class Context:
    """The auction when a seat bids: the standing contract (bidder -1: none)."""

    seat: int
    bidder: int
    index: int
    suit: int
    levels: tuple[int, ...]
    capot_index: int  # the capot's level index (-1: none)


def context_of(obs: Observation) -> Context:
    rules = obs.ruleset
    assert rules is not None and rules.auction is not None and obs.seat is not None
    bidder, index, suit, _ = obs.standing_contract() or (-1, -1, -1, 0)
    levels = rules.auction.levels
    capot = rules.auction.capot_level
    capot_index = levels.index(capot) if capot and capot in levels else -1
    return Context(obs.seat, bidder, index, suit, levels, capot_index)


def features(hand: CardSet, ctx: Context, action: int) -> list[float]:
    """``phi(action)`` (see the module doc); all zeros for a pass."""
    phi = [0.0] * DIMENSION
    partner = ctx.bidder >= 0 and ctx.bidder % 2 == ctx.seat % 2
    if A.CONTRACT_BASE <= action < A.CONTRACT_END:
        index, suit = A.contract_level_index(action), A.contract_suit(action)
        capot = index == ctx.capot_index
        lz = 0.0 if capot else (ctx.levels[index] - 80) / 10.0
        raise_ = float(partner and suit == ctx.suit)
        x = suit_features(hand, suit)
        for g, mult in enumerate((1.0, lz, raise_, raise_ * lz, float(capot))):
            if mult:
                for k in range(HAND):
                    phi[g * HAND + k] = mult * x[k]
        base = GROUPS * HAND
        jump = index - ctx.index - 1 if not capot else 0
        phi[base:base + CONTEXT] = [1.0, lz, lz * lz, float(jump), raise_,
                                    float(ctx.bidder >= 0 and not partner),
                                    float(partner and suit != ctx.suit), float(capot)]
    elif action == A.CONTRO and ctx.suit >= 0:
        base = GROUPS * HAND + CONTEXT
        x = suit_features(hand, ctx.suit)
        phi[base:base + HAND] = x
        phi[base + HAND] = 1.0
        phi[base + HAND + 1] = (ctx.levels[ctx.index] - 80) / 10.0
    elif action == A.SURCONTRO and ctx.suit >= 0:
        base = GROUPS * HAND + CONTEXT + CONTRO
        phi[base:base + HAND] = suit_features(hand, ctx.suit)
        phi[base + HAND] = 1.0
    return phi


class LogitBidder:
    """P(bid | hand, auction) under fitted weights; :meth:`log_prob` is what the expert's
    model of a seat reads (:mod:`belote.ai.models.seats`)."""

    def __init__(self, weights: list[float], name: str = "learned") -> None:
        if len(weights) != DIMENSION:
            raise ValueError(f"{DIMENSION} weights expected, got {len(weights)}")
        self.weights = weights
        self.name = name

    def slow_scores(self, hand: CardSet, ctx: Context,
                    legal: tuple[int, ...]) -> list[float]:
        """``w . phi(a)`` for each legal bid, from :func:`features` (the reference that
        :meth:`scores` computes faster; the tests compare them)."""
        w = self.weights
        return [sum(wi * fi for wi, fi in zip(w, features(hand, ctx, a), strict=True))
                for a in legal]

    def scores(self, hand: CardSet, ctx: Context, legal: tuple[int, ...]) -> list[float]:
        """``w . phi(a)`` for each legal bid: the hand's part once per suit and group."""
        w = self.weights
        xs = [suit_features(hand, s) for s in range(4)]
        u = [[sum(w[g * HAND + k] * x[k] for k in range(HAND)) for x in xs]
             for g in range(GROUPS)]
        c = w[GROUPS * HAND:GROUPS * HAND + CONTEXT]
        partner = ctx.bidder >= 0 and ctx.bidder % 2 == ctx.seat % 2
        over_opp = float(ctx.bidder >= 0 and not partner)
        out: list[float] = []
        for action in legal:
            if A.CONTRACT_BASE <= action < A.CONTRACT_END:
                index, suit = A.contract_level_index(action), A.contract_suit(action)
                capot = index == ctx.capot_index
                lz = 0.0 if capot else (ctx.levels[index] - 80) / 10.0
                raise_ = float(partner and suit == ctx.suit)
                jump = 0.0 if capot else float(index - ctx.index - 1)
                out.append(u[0][suit] + lz * u[1][suit] + raise_ * (u[2][suit] + lz * u[3][suit])
                           + (u[4][suit] if capot else 0.0)
                           + c[0] + c[1] * lz + c[2] * lz * lz + c[3] * jump + c[4] * raise_
                           + c[5] * over_opp + c[6] * float(partner and suit != ctx.suit)
                           + (c[7] if capot else 0.0))
            elif action == A.CONTRO and ctx.suit >= 0:
                base = GROUPS * HAND + CONTEXT
                x = xs[ctx.suit]
                out.append(sum(w[base + k] * x[k] for k in range(HAND)) + w[base + HAND]
                           + w[base + HAND + 1] * (ctx.levels[ctx.index] - 80) / 10.0)
            elif action == A.SURCONTRO and ctx.suit >= 0:
                base = GROUPS * HAND + CONTEXT + CONTRO
                x = xs[ctx.suit]
                out.append(sum(w[base + k] * x[k] for k in range(HAND)) + w[base + HAND])
            else:
                out.append(0.0)
        return out

    def log_prob(self, view: Observation, action: int) -> float:
        """log P(``action`` | the bidder's hand and the auction in ``view``)."""
        legal = view.legal_actions
        if action not in legal:
            raise ValueError(f"bid {action} is not among the legal ones")
        scores = self.scores(view.hand, context_of(view), legal)
        top = max(scores)
        norm = top + math.log(sum(math.exp(s - top) for s in scores))
        return scores[legal.index(action)] - norm

    def choose(self, view: Observation) -> int:
        """The bid the model finds likeliest."""
        scores = self.scores(view.hand, context_of(view), view.legal_actions)
        return view.legal_actions[scores.index(max(scores))]


@cache
def colver_bidder() -> LogitBidder:
    """The model fitted to colver-bid's recorded auctions (package data)."""
    text = resources.files("belote.ai.models").joinpath("data/colver_bids.json").read_text()
    data = json.loads(text)
    return LogitBidder([float(w) for w in data["weights"]], name="colver-bid (learned)")
