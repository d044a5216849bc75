"""How likely a sampled world makes the cards seen so far: weights for the expert's worlds.

Worlds are dealt uniformly within the hard facts (:mod:`belote.ai.worlds`), but players do
not play at random: a world in which the opponents' cards were the obvious ones to play is
likelier than one in which they made odd choices.  The field's answer (GIB's and Kermit's
"inference", colver's weighted worlds) is to weight each world by the probability that an
**opponent model** makes the moves seen, given that world's hands.

The model here is the normal bot (:class:`belote.ai.heuristic.HeuristicBot`), softened: at a
move with ``n`` legal cards it plays its own choice with probability ``1 - eps`` and each
other legal card with ``eps / (n - 1)``.  ``eps`` says how much the model is trusted: the
opponents are not the normal bot, so a move it would not make must not rule a world out.
Moves with one legal card say nothing and count 1.  The result is a log-likelihood, to be
normalised over the worlds of one decision by the caller.

With an auction (every card dealt before the bidding, no turned card) the bids count too,
the normal bot's bidder (:func:`belote.ai.bidding.choose_bid`) as the model with the same
``eps``.  In take-or-pass a seat bid with five of its eight cards and which five is not
known: the bids are left out there.

Where the other seats' bidding system is known exactly (colver's ``improved_v2`` at every
seat of colver's tables), weights are the wrong tool: a world whose hands would not have
made the bids heard is simply not one.  :class:`BidModel` is that system's interface; the
expert then draws its worlds among those the model fits (:mod:`belote.ai.fitting`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Protocol

from belote.ai.heuristic import HeuristicBot
from belote.ai.models.auction import hands_at_deal as auction_hands_at_deal
from belote.cards import CardSet
from belote.engine.bidding import bidding_system
from belote.engine.obligations import legal_plays
from belote.engine.observation import Observation
from belote.engine.state import Phase
from belote.rules.base import Rules

# One bid of the auction as the bidder saw it: (seat, bid made, legal bids, bids before it)
AuctionMove = tuple[int, int, tuple[int, ...], tuple[tuple[int, int], ...]]


def bids_readable(rules: Rules | None) -> bool:
    """Whether a seat's bids can be read from its hand as dealt: an auction with every card
    dealt before it (in take-or-pass a seat bids with five of its eight cards)."""
    return rules is not None and rules.auction is not None and not rules.turned_card


def auction_moves(obs: Observation) -> tuple[AuctionMove, ...]:
    """The other seats' bids with a choice, each with what was legal then (the same in
    every world: computed once per decision); empty where bids are not modelled."""
    rules = obs.ruleset
    if rules is None or not bids_readable(rules) or obs.trump is None:
        return ()
    system = bidding_system(rules.bidding)
    state = system.start(obs.dealer)
    out: list[AuctionMove] = []
    for index, (who, action) in enumerate(obs.bids):
        legal = tuple(sorted(system.legal_bids(state, -1, rules)))
        if who != obs.seat and len(legal) > 1 and action in legal:
            out.append((who, action, legal, obs.bids[:index]))
        system.apply(state, who, action, -1, rules)
    return tuple(out)


def bid_log_likelihood(obs: Observation, hands: tuple[int, int, int, int],
                       moves: tuple[AuctionMove, ...], model: HeuristicBot,
                       eps: float) -> float:
    """Log-probability that the model's bidder makes the bids ``moves`` (see
    :func:`auction_moves`) with ``hands``, the seats' cards as dealt."""
    keep, switch = math.log(1.0 - eps), math.log(eps)
    total = 0.0
    for who, action, legal, before in moves:
        view = dataclasses.replace(
            obs, seat=who, hand=hands[who], phase=int(Phase.BIDDING), bids=before,
            legal_actions=legal, current_player=who, taker=None, trump=None, trick=(),
            tricks=(), played=0)
        choice = model.choose(view)
        total += keep if choice == action else switch - math.log(len(legal) - 1)
    return total


def _tricks_seen(obs: Observation) -> list[tuple[int, tuple[int, ...]]]:
    tricks = list(obs.tricks)
    if obs.trick:
        tricks.append((obs.trick[0][0], tuple(c for _, c in obs.trick)))
    return tricks


def hands_at_deal(obs: Observation,
                  world: Sequence[CardSet]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    """The four hands as dealt, from a world's cards still in hand (``obs.seat``'s entry
    must be its hand) and the cards each seat has played since (one home:
    :func:`belote.ai.models.auction.hands_at_deal`, for any number of seats)."""
    hands = auction_hands_at_deal(obs, world)
    return hands[0], hands[1], hands[2], hands[3]


class BidModel(Protocol):
    """A model of how the other seats bid: where the bidding system at the table is known
    (a convention everyone plays), a world whose hands would not have made the bids heard
    is unlikely.  The expert draws its worlds among those the model fits
    (``ExpertBot(bid_model=...)``)."""

    def misfits(self, obs: Observation,
                hands: tuple[CardSet, CardSet, CardSet, CardSet]) -> int:
        """How many of the other seats' bids in ``obs.bids`` the model would not have
        made with ``hands`` (the four hands as dealt)."""
        ...


def play_log_likelihood(obs: Observation, world: tuple[int, int, int, int],
                        model: HeuristicBot, eps: float,
                        auction: tuple[AuctionMove, ...] = ()) -> float:
    """Log-probability that ``model`` (softened by ``eps``) plays the cards seen in this
    hand for the other three seats, had they held ``world``'s cards (each seat's cards
    still in hand; ``obs.seat``'s own entry is ignored).

    The seats' hands at each past move are rebuilt from ``world`` plus the cards each seat
    has played since; the model sees what that seat saw then (its hand, the cards played,
    the trick so far).  ``auction`` (:func:`auction_moves`): the bids to count as well."""
    if not 0.0 < eps < 1.0:
        raise ValueError("eps must be strictly between 0 and 1")
    rules = obs.ruleset
    seat = obs.seat
    if rules is None or seat is None or obs.trump is None or obs.taker is None:
        raise ValueError("a card-play observation with its rules, seat and contract")
    tricks = _tricks_seen(obs)
    hands = list(hands_at_deal(obs, world))
    keep, switch = math.log(1.0 - eps), math.log(eps)
    total = 0.0
    if auction:
        total = bid_log_likelihood(obs, (hands[0], hands[1], hands[2], hands[3]), auction,
                                   model, eps)
    played = 0
    for number, (leader, cards) in enumerate(tricks):
        for i, card in enumerate(cards):
            who = (leader + i) % 4
            on_table = cards[:i]
            if who != seat:
                legal = legal_plays(hands[who], on_table, obs.trump, rules)
                n = legal.bit_count()
                if not legal >> card & 1:
                    return -math.inf  # the world cannot have played it (not expected)
                if n > 1:
                    plays = tuple(c for c in range(32) if legal >> c & 1)
                    view = dataclasses.replace(
                        obs, seat=who, hand=hands[who], played=played,
                        trick=tuple(((leader + j) % 4, c) for j, c in enumerate(on_table)),
                        trick_no=number, current_player=who, legal_actions=plays,
                        leader=leader)
                    choice = model.choose(view) & 31
                    total += keep if choice == card else switch - math.log(n - 1)
            hands[who] &= ~(1 << card)
            played |= 1 << card
    return total


def normalised(log_weights: list[float]) -> list[float]:
    """Weights summing to 1 from log-weights (all -inf: equal weights)."""
    top = max(log_weights, default=-math.inf)
    if top == -math.inf:
        return [1.0 / len(log_weights)] * len(log_weights) if log_weights else []
    raw = [math.exp(w - top) for w in log_weights]
    scale = sum(raw)
    return [w / scale for w in raw]
