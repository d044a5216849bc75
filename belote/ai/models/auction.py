"""The other seats' bids as each bidder saw them, and the hands they bid with.

A bid says something about the hand it was made with: every card dealt before an auction;
in take-or-pass, the first five of a seat's eight (:attr:`belote.engine.evidence.World.
first`).  :func:`auction_moves` replays the public auction once per decision (what was
legal at each bid is the same in every world); :func:`bid_view` is what the bidder saw then,
with a world's hand in place of the one nobody knows (the engine's
:func:`belote.engine.knowledge.world_of` draws which five cards each seat held at a
take-or-pass auction: the split is not known, drawing it with the world marginalises over
it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from belote.cards import CardSet
from belote.engine.bidding import bidding_system
from belote.engine.evidence import World
from belote.engine.observation import Observation
from belote.engine.state import Phase

# One bid with a choice, as its bidder saw it: (seat, bid made, legal bids, bids before it)
AuctionMove = tuple[int, int, tuple[int, ...], tuple[tuple[int, int], ...]]



def auction_moves(obs: Observation) -> tuple[AuctionMove, ...]:
    """The bids of the seats other than ``obs.seat`` (a spectator's: every seat's) that had
    a choice, with what was legal then; empty without rules, a bidding system or four
    seats."""
    rules = obs.ruleset
    if rules is None or rules.players != 4 or not obs.bids:
        return ()
    turned = obs.turned if obs.turned is not None else -1
    if rules.turned_card and turned < 0:
        return ()
    system = bidding_system(rules.bidding)
    state = system.start(obs.dealer)
    out: list[AuctionMove] = []
    for index, (who, action) in enumerate(obs.bids):
        legal = tuple(sorted(system.legal_bids(state, turned, rules)))
        if who != obs.seat and len(legal) > 1 and action in legal:
            out.append((who, action, legal, obs.bids[:index]))
        if system.apply(state, who, action, turned, rules) is not False:
            break  # the auction ended (a contract, or all passed)
    return tuple(out)


def bid_view(obs: Observation, move: AuctionMove, hand: CardSet) -> Observation:
    """What ``move``'s bidder saw when it bid, holding ``hand``."""
    who, _action, legal, before = move
    return dataclasses.replace(
        obs, seat=who, hand=hand, phase=int(Phase.BIDDING), bids=before,
        legal_actions=legal, current_player=who, taker=None, trump=None, trick=(),
        tricks=(), played=0, last_trick=None, belote_said=(), shown=(0, 0, 0, 0),
        declarations_said=(), contract_level=0, contract_multiplier=1)


def hands_at_deal(obs: Observation, hands: Sequence[CardSet]) -> tuple[CardSet, ...]:
    """Each seat's cards as dealt: ``hands`` (in hand now) plus what it played this hand."""
    dealt = list(hands)
    tricks = list(obs.tricks)
    if obs.trick:
        tricks.append((obs.trick[0][0], tuple(c for _, c in obs.trick)))
    n = len(dealt)
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            dealt[(leader + i) % n] |= 1 << card
    return tuple(dealt)


def bidding_hand(world: World, seat: int) -> CardSet:
    """The cards ``seat`` bid with in ``world``."""
    return world.first[seat]
