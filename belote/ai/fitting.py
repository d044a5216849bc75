"""Worlds drawn among those a model of the bids fits, kept for the hand's later decisions.

Where the bidding system at the table is known (:class:`belote.ai.likelihood.BidModel`), a
world whose hands would not have made the bids heard is not worth solving: GIB draws its
bridge worlds "consistent with the auction" under the system the table plays.  Here a world
is drawn within the hard facts (:func:`belote.ai.worlds.sample_world`) and redrawn until the
model fits every bid, at most ``draws`` times; past that, the draw that fitted best is taken
and counted (``misfits``), never silently.

Fitting worlds are rare (in colver's auctions, 2.5 % of uniform worlds at the median, under
0.5 % for a quarter of them, docs/bots.md) but stay fitting for the whole hand: each is kept
as dealt and offered again at the seat's later decisions, if it still fits the cards seen
since (:func:`belote.ai.worlds.fits`); one that no longer does is dropped.  Filtering a
draw among the fitting worlds keeps it a draw among those that also fit the new facts, so
the kept worlds and the fresh draws come (approximately: ``sample_world`` itself is only
roughly uniform, and deals cards under the facts known when it ran) from the same
distribution.  Discard signals, weighed by rejection, are weighed once per deal: a kept deal
is tested only against the signals given since it was drawn.
"""

from __future__ import annotations

import logging
import math
import random
import time
from typing import Protocol

from belote.ai.likelihood import BidModel, bids_readable, hands_at_deal
from belote.ai.worlds import ConventionEvidence, Knowledge, fits, sample_whole_world, world_of
from belote.cards import CardSet
from belote.engine.evidence import Evidence
from belote.engine.evidence import World as EvidenceWorld
from belote.engine.observation import Observation

log = logging.getLogger(__name__)

World = tuple[CardSet, ...]  # each seat's cards in hand now, the deciding seat's included

# At most this many draws per world: about 60 us each with colver's bidder.
DRAWS = 600
# At most this many fitting deals kept per hand.
KEPT = 256


class SeatEvidence(Protocol):
    """An :class:`belote.engine.evidence.Evidence` that says whether it reads anything."""

    def reads(self, obs: Observation) -> bool: ...

    def log_likelihood(self, obs: Observation, world: EvidenceWorld) -> float: ...


# The bots' conventions as soft evidence (issue 23: no longer facts of the sampler); a kept
# deal is weighed again by what was said since it was drawn.
CONVENTIONS = ConventionEvidence()


class KeptDeals:
    """What :class:`FittingWorlds` and :class:`EvidenceWorlds` share: the draw limits, the
    counters, and this hand's accepted deals, each as the World the evidence read when it
    was accepted (as dealt, with its first packets) and the log-likelihood it had then.  At
    a later decision a deal is offered again if it dealt each seat the cards it has played
    since and still fits the facts, accepted with chance ``exp(now - then)`` for what was
    said since (weighed by rejection, once, on that same World), and dropped for good
    otherwise; a new hand forgets the last one's deals."""

    def __init__(self, reweigh: Evidence, rng: random.Random, draws: int = DRAWS,
                 kept: int = KEPT) -> None:
        if draws < 1 or kept < 0:
            raise ValueError("at least one draw per world, and no negative number kept")
        self.reweigh = reweigh
        self.rng = rng
        self.max_draws = draws
        self.max_kept = kept
        self.draws = 0  # worlds drawn in all
        self.misfits = 0  # worlds handed out that were not accepted (counted and logged)
        self.key: tuple[object, ...] | None = None  # the hand the kept deals belong to
        self.deals: list[tuple[EvidenceWorld, float]] = []

    def _accept(self, log_likelihood: float) -> bool:
        return log_likelihood >= 0.0 or self.rng.random() < math.exp(log_likelihood)

    def kept(self, obs: Observation, info: Knowledge) -> list[World]:
        """This hand's accepted deals that still fit the facts and the evidence since, as
        worlds of the cards in hand now, in random order."""
        assert obs.seat is not None
        # each seat's cards played this hand: a deal must have dealt them to that seat (the
        # world's cards in hand could fit the facts with two seats' played cards swapped,
        # and the evidence was read on the deal, not on such a world)
        played_by = hands_at_deal(obs, [0, 0, 0, 0])
        key = (obs.ruleset, obs.dealer, obs.seat, obs.bids, obs.hand | played_by[obs.seat])
        if key != self.key:
            self.key, self.deals = key, []
            return []
        out: list[World] = []
        still: list[tuple[EvidenceWorld, float]] = []
        for deal, then in self.deals:
            if any(played_by[s] & ~deal.dealt[s] for s in range(4)):
                continue
            hands = tuple(obs.hand if s == obs.seat else deal.dealt[s] & ~obs.played
                          for s in range(4))
            if not fits(info, hands):
                continue
            now = self.reweigh.log_likelihood(
                obs, EvidenceWorld(hands, deal.dealt, deal.first))
            if now >= then or self._accept(now - then):
                out.append(hands)
                still.append((deal, now))
        self.deals = still
        self.rng.shuffle(out)
        return out


class FittingWorlds(KeptDeals):
    """One seat's source of worlds that fit ``model``; counts its draws and misfits.  The
    bots' conventions weigh its draws, and what is said later its kept deals."""

    def __init__(self, model: BidModel, rng: random.Random, draws: int = DRAWS,
                 kept: int = KEPT) -> None:
        super().__init__(CONVENTIONS, rng, draws, kept)
        self.model = model

    @staticmethod
    def applies(obs: Observation) -> bool:
        """Whether bids were heard that a model can read: four seats, an auction with
        every card dealt before it (no turned card), at least one bid."""
        rules = obs.ruleset
        return (rules is not None and bids_readable(rules) and rules.players == 4
                and bool(obs.bids))

    def draw(self, info: Knowledge, obs: Observation, stop: float) -> tuple[World, bool]:
        """A world the model fits (kept for later) and True, or the best fit of
        ``max_draws`` draws or of those made by ``stop`` (``time.monotonic()``) and False,
        counted and logged."""
        assert obs.seat is not None
        best: World = ()
        fewest = -1
        tries = 0
        for tries in range(1, self.max_draws + 1):
            world = sample_whole_world(info, self.rng, deadline=stop, model=self.reweigh)
            deal = hands_at_deal(obs, world)
            misfits = self.model.misfits(obs, deal)
            self.draws += 1
            if misfits == 0:
                if len(self.deals) < self.max_kept:
                    read = world_of(info, world, self.rng)
                    self.deals.append((read, self.reweigh.log_likelihood(obs, read)))
                return world, True
            if fewest < 0 or misfits < fewest:
                best, fewest = world, misfits
            if tries % 32 == 0 and time.monotonic() >= stop:
                break
        self.misfits += 1
        log.info("no world fitting the bids in %d draws; one with %d misfits (%d such "
                 "worlds so far)", tries, fewest, self.misfits)
        return best, False


class EvidenceWorlds(KeptDeals):
    """One seat's source of worlds weighed by soft evidence (a model of the other seats,
    :class:`belote.engine.evidence.Evidence`, normalised so that a world every model agrees
    with scores 0: :class:`belote.ai.models.SeatModels`): a world drawn within the facts is
    accepted with chance ``exp(log_likelihood)``, so the worlds handed out are draws from
    the facts' worlds weighted by the evidence (rejection sampling).  At most ``draws``
    draws per world; past that, the likeliest of them is taken, counted (``misfits``) and
    logged, never silently.

    Accepted deals are kept for the hand, as :class:`FittingWorlds` keeps its deals, each
    with the log-likelihood it was accepted under: at a later decision it is offered again
    if it still fits the facts, accepted with chance ``exp(now - then)`` for the evidence
    heard since (a signal), and dropped for good otherwise."""

    def __init__(self, evidence: SeatEvidence, rng: random.Random, draws: int = DRAWS,
                 kept: int = KEPT) -> None:
        super().__init__(evidence, rng, draws, kept)
        self.evidence = evidence

    def applies(self, obs: Observation) -> bool:
        """Whether the model has something to weigh here (four seats, a word or bid)."""
        rules = obs.ruleset
        return rules is not None and rules.players == 4 and self.evidence.reads(obs)

    def draw(self, info: Knowledge, obs: Observation, stop: float) -> tuple[World, bool]:
        """A world accepted by the evidence (kept for later) and True, or the likeliest of
        the draws made by ``max_draws`` or ``stop`` and False, counted and logged."""
        best: World = ()
        best_ll = -math.inf
        tries = 0
        for tries in range(1, self.max_draws + 1):
            hands = sample_whole_world(info, self.rng, deadline=stop)
            world = world_of(info, hands, self.rng)
            ll = self.evidence.log_likelihood(obs, world)
            self.draws += 1
            if self._accept(ll):
                if len(self.deals) < self.max_kept:
                    self.deals.append((world, ll))
                return hands, True
            if ll > best_ll or not best:  # never hand out no world, even at -inf
                best, best_ll = hands, ll
            if tries % 32 == 0 and time.monotonic() >= stop:
                break
        self.misfits += 1
        log.info("no world accepted by the seat models in %d draws; the likeliest (log %.1f)"
                 " (%d such worlds so far)", tries, best_ll, self.misfits)
        return best, False
