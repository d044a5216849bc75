"""The expert's model of each other seat, read as soft evidence (an :class:`Evidence`).

What a seat said and bid weighs a world by how likely that seat makes those calls with the
world's hand; nothing here rules a world out (a person may do anything).  Per seat, from the
table's composition (:class:`~belote.ai.models.table.TableSeat`):

* **its bids**: a bot whose bidder is known and deterministic (``normal``, ``heuristic``,
  ``easy``: :data:`KNOWN_BIDDERS`) is that bidder, trusted all but ``1 - KNOWN_TRUST``
  (GIB's worlds "consistent with the auction" under the disclosed system, softened only
  so that a misfit is never impossible); a seat whose bids come from colver-bid is the
  bidder learned from colver's recorded auctions (:func:`~belote.ai.models.network_bids.
  colver_bidder`, when the level asks for it); anyone else (a person, an expert, an
  unknown plug-in) is the normal bidder with a trust *learned* from that seat's hands:
  Beta counts of how often its bids were the normal bidder's on its real hand, from a
  weak prior;
* **its words** (passo, aspetto, the support calls, discard signals: :mod:`.words`): a bot
  of this package says them truthfully, weighed as the engine weighs the bots'
  conventions (``WORD_ODDS``; signals ``SIGNAL_ODDS``: a bot may have had no true signal to
  give); anyone else is trusted by Beta counts of how
  often its words were true of its hand, each kind on its own, from a weak prior
  (``PRIOR_ODDS``, worth ``PRIOR_COUNT`` hands).  The weight of a word is its likelihood
  ratio: a seat whose words are true as often as chance says nothing (the "liar").

At the end of a hand played out every card is known: :meth:`SeatModels.learn` scores each
seat's words and bids against its real hand.  The log-likelihood is normalised so that a
world every model agrees with scores 0: ``exp(log_likelihood)`` is an acceptance chance
(the expert draws its worlds by rejection, :mod:`belote.ai.fitting`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from belote.ai.models.auction import AuctionMove, auction_moves, bid_view, bidding_hand
from belote.ai.models.learned import SeatContext, SeatCounts, hand_counts
from belote.ai.models.network_bids import NetworkBidder, colver_bidder
from belote.ai.models.table import TableSeat
from belote.ai.models.words import ASPETTO, PASSO, SIGNAL, SUPPORT, Claim, claims
from belote.ai.worlds import SIGNAL_ODDS, WORD_ODDS
from belote.cards import CardSet
from belote.engine.evidence import World
from belote.engine.observation import Observation

log = logging.getLogger(__name__)

# Levels whose bids are a fixed function of what they see (the normal bidder, bolder or
# more cautious): a world's hand gives exactly their bid.
KNOWN_BIDDERS = frozenset({"normal", "heuristic", "easy"})
# Levels of this package, whose conventional words are true (RULES.md: bots say them
# truthfully): the built-in bots and the expert's variants.
TRUTHFUL = frozenset({"normal", "heuristic", "easy", "quick", "expert"})
KNOWN_TRUST = 0.999  # a known bidder's bid, as the model of it sees it
# Someone unknown: their words are believed PRIOR_ODDS to 1 until their hands say otherwise,
# as if PRIOR_COUNT hands had shown it; their bids are the normal bidder's PRIOR_AGREEMENT
# of the time, as if PRIOR_COUNT bids had shown it.  Not tuned.
PRIOR_ODDS = 4.0
PRIOR_COUNT = 4.0
PRIOR_AGREEMENT = 0.5
# How often each kind of claim is true of a random hand (8 cards of 32): a word true as
# often as that says nothing.  No ace: C(28,8)/C(32,8).  The support calls and signals are
# taken as even (not measured).
BASE_RATE = {PASSO: 0.2955, ASPETTO: 0.7045, SUPPORT: 0.5, SIGNAL: 0.5}

BidLogProb = Callable[[Observation, int], float]


def _truthful(level: str | None) -> bool:
    return level is not None and (level in TRUTHFUL or level.startswith("expert"))


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


@dataclass
class Tally:
    """Beta counts: how often something was true, from a prior mean and weight."""

    true: float
    false: float

    @classmethod
    def prior(cls, mean: float, count: float = PRIOR_COUNT) -> Tally:
        return cls(mean * count, (1.0 - mean) * count)

    @property
    def mean(self) -> float:
        return self.true / (self.true + self.false)

    def add(self, held: bool) -> None:
        if held:
            self.true += 1
        else:
            self.false += 1


class KnownBidder:
    """A deterministic bidder, trusted ``trust``: its bid with probability ``trust``, any
    other legal bid alike with the rest."""

    def __init__(self, choose: Callable[[Observation], int], trust: float = KNOWN_TRUST,
                 tally: Tally | None = None) -> None:
        self.choose = choose
        self.trust = trust
        self.tally = tally  # learned agreement (None: ``trust`` is fixed)

    def agreement(self) -> float:
        return self.trust if self.tally is None else self.tally.mean

    def log_prob(self, view: Observation, action: int) -> float:
        """Normalised so that the likeliest outcome scores 0."""
        n = len(view.legal_actions)
        a = self.agreement()
        hit = a + (1.0 - a) / n
        miss = (1.0 - a) / n
        top = max(hit, miss)
        return math.log((hit if self.choose(view) == action else miss) / top)


class Learned:
    """A probabilistic bidder (``NetworkBidder``): its log-probability as it is."""

    def __init__(self, bidder: NetworkBidder) -> None:
        self.bidder = bidder

    def log_prob(self, view: Observation, action: int) -> float:
        return self.bidder.log_prob(view, action)


@dataclass
class SeatModel:
    """One seat's model: its bidder (None: its bids are not read) and, per kind of word,
    a fixed log-odds (a truthful bot) or a tally (anyone else)."""

    bids: KnownBidder | Learned | None
    odds: dict[str, float] = field(default_factory=dict)
    words: dict[str, Tally] = field(default_factory=dict)

    def log_odds(self, kind: str) -> float:
        """How much likelier the word is when true than when false, as a log-ratio."""
        if kind in self.odds:
            return self.odds[kind]
        tally = self.words.get(kind)
        if tally is None:
            return 0.0
        p = min(max(tally.mean, 1e-6), 1.0 - 1e-6)
        return _logit(p) - _logit(BASE_RATE[kind])


class SeatModels:
    """The :class:`belote.engine.evidence.Evidence` of the expert: one model per seat."""

    # Every term is at most 0 (a claim's penalty, a bid's log-probability): the bound lets
    # the engine's sampler weigh by exact rejection (belote.engine.knowledge).
    max_log_likelihood = 0.0

    def __init__(self, models: dict[int, SeatModel]) -> None:
        self.models = models
        self._moves_key: object = None
        self._moves: tuple[AuctionMove, ...] = ()
        self._claims: tuple[Claim, ...] = ()
        self.learned_hands = 0

    def _read(self, obs: Observation) -> tuple[tuple[AuctionMove, ...], tuple[Claim, ...]]:
        key = (obs.ruleset, obs.dealer, obs.seat, obs.bids, obs.turned, obs.tricks, obs.trick)
        if key != self._moves_key:
            self._moves_key = key
            self._moves = auction_moves(obs)
            self._claims = claims(obs)
        return self._moves, self._claims

    def reads(self, obs: Observation) -> bool:
        """Whether any model has something to weigh in ``obs``."""
        moves, said = self._read(obs)
        return any(self._model_bids(m[0]) for m in moves) or any(
            self.models.get(c.seat) for c in said)

    def _model_bids(self, seat: int) -> bool:
        model = self.models.get(seat)
        return model is not None and model.bids is not None

    def log_likelihood(self, obs: Observation, world: World) -> float:
        moves, said = self._read(obs)
        total = 0.0
        for claim in said:
            model = self.models.get(claim.seat)
            if model is None:
                continue
            r = model.log_odds(claim.kind)
            held = claim.holds(world)
            total += (0.0 if held else -r) if r >= 0 else (r if held else 0.0)
        for move in moves:
            model = self.models.get(move[0])
            if model is None or model.bids is None:
                continue
            view = bid_view(obs, move, bidding_hand(world, move[0]))
            total += model.bids.log_prob(view, move[1])
        return total

    def learn(self, obs: Observation, dealt: Sequence[CardSet]) -> None:
        """Score each seat's words and bids of the hand just played (``obs``: the last
        observation of it, every bid in; ``dealt``: the four hands as dealt, every card
        known once the hand is played out) into its tallies (:func:`.learned.hand_counts`:
        take-or-pass hands teach the discard signals only, since which five cards a seat
        bid with is not known)."""
        self.absorb(hand_counts(obs, list(dealt), self._scored_bidder))
        self.learned_hands += 1
        log.debug("seat models: learned from hand %d", self.learned_hands)

    def _scored_bidder(self, seat: int) -> Callable[[Observation], int] | None:
        model = self.models.get(seat)
        if model is None or not isinstance(model.bids, KnownBidder) or model.bids.tally is None:
            return None
        return model.bids.choose

    def absorb(self, learned: Mapping[int, SeatCounts]) -> None:
        """Add counts learned of the seats (a hand's, or a table's so far) to the tallies
        that learn them; a seat trusted as known (a truthful bot's words, a known bidder)
        keeps its fixed trust."""
        for seat, counts in learned.items():
            model = self.models.get(seat)
            if model is None:
                continue
            for kind, tally in model.words.items():
                true, false = counts.word(kind)
                tally.true += true
                tally.false += false
            if isinstance(model.bids, KnownBidder) and model.bids.tally is not None:
                model.bids.tally.true += counts.bids[0]
                model.bids.tally.false += counts.bids[1]


def _normal_bidder() -> Callable[[Observation], int]:
    from belote.ai.heuristic import HeuristicBot
    return HeuristicBot(0, name="normal").choose


def _bidder_of(level: str) -> Callable[[Observation], int]:
    from belote.ai.registry import make_bot
    return make_bot(level, 0).choose


def models_for(seats: Sequence[TableSeat], me: int, *,
               learned_bidders: dict[str, NetworkBidder] | None = None) -> SeatModels:
    """The expert's model of every seat but ``me`` at a table of ``seats``.
    ``learned_bidders``: levels whose bids a learned model reads (e.g. ``{"colver-bid":
    colver_bidder()}``; never a call into that level's own code)."""
    learned = learned_bidders or {}
    models: dict[int, SeatModel] = {}
    for s, seat in enumerate(seats):
        if s == me:
            continue
        bids: KnownBidder | Learned | None
        if seat.bids in learned:
            bids = Learned(learned[seat.bids])
        elif seat.bids in KNOWN_BIDDERS:
            bids = KnownBidder(_bidder_of(seat.bids))
        else:  # a person or an unknown bidder: the normal bidder, trust learned
            bids = KnownBidder(_normal_bidder(), tally=Tally.prior(
                0.7 if _truthful(seat.bids) else PRIOR_AGREEMENT))
        model = SeatModel(bids)
        if _truthful(seat.level):
            model.odds = {PASSO: math.log(WORD_ODDS), ASPETTO: math.log(WORD_ODDS),
                          SUPPORT: math.log(WORD_ODDS), SIGNAL: math.log(SIGNAL_ODDS)}
        else:
            model.words = {kind: Tally.prior(1.0 / (1.0 + (1.0 - base) / (base * PRIOR_ODDS)))
                           for kind, base in BASE_RATE.items()}
        models[s] = model
    return SeatModels(models)


def scored_against_normal(seat: TableSeat) -> bool:
    """Whether the normal bidder is what ``seat``'s bids are scored against (its trust
    learned): a person, an expert, an unknown bot; not a known bidder.  (A level whose bids
    a learned model reads ignores these counts.)"""
    return seat.bids not in KNOWN_BIDDERS


def normal_bidder() -> Callable[[Observation], int]:
    """The bidder a learned trust is a trust in (:func:`scored_against_normal`)."""
    return _normal_bidder()


def models_at(table: SeatContext, me: int, *,
              learned_bidders: dict[str, NetworkBidder] | None = None) -> SeatModels:
    """:func:`models_for` at a room table: its composition, with the counts it learned of
    each seat added to the models' priors (built per decision: nothing kept between
    tables)."""
    models = models_for(table.seats, me, learned_bidders=learned_bidders)
    models.absorb(dict(enumerate(table.learned)))
    return models


__all__ = ["KnownBidder", "Learned", "SeatModel", "SeatModels", "Tally", "colver_bidder",
           "models_at", "models_for", "normal_bidder", "scored_against_normal"]
