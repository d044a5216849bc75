"""What a table learns of each seat from the hands it saw played out: plain counts.

Once a hand is played out every card is public, and each seat's words and bids of that hand
can be scored against the hand it really held (:meth:`belote.ai.models.seats.SeatModels.
learn`).  The scores are facts about the seat's occupant, kept as counts
(:class:`SeatCounts`): how often each kind of its words was true, how often its bids were
the normal bidder's.  A model weighs them with its priors; the counts themselves carry no
card.  A room table keeps them per seat occupant and tells its bots with each decision, in
a :class:`SeatContext`, beside the composition (belote.server.bots.context).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from belote.ai.models.auction import auction_moves, bid_view
from belote.ai.models.table import TableSeat
from belote.ai.models.words import KINDS, claims
from belote.cards import CardSet
from belote.engine.observation import Observation

Counts = tuple[int, int]  # (true, false)
_NONE: tuple[Counts, ...] = tuple((0, 0) for _ in KINDS)


@dataclass(frozen=True, slots=True)
class SeatCounts:
    """One seat's record: per kind of word (``KINDS`` order), how often it was true and
    false of the hand; how often the seat's bids were its reference bidder's and not."""

    words: tuple[Counts, ...] = _NONE
    bids: Counts = (0, 0)

    def plus(self, other: SeatCounts) -> SeatCounts:
        return SeatCounts(tuple((a + c, b + d) for (a, b), (c, d) in zip(self.words, other.words,
                                                                         strict=True)),
                          (self.bids[0] + other.bids[0], self.bids[1] + other.bids[1]))

    def word(self, kind: str) -> Counts:
        return self.words[KINDS.index(kind)]


@dataclass(frozen=True, slots=True)
class SeatContext:
    """What a room table tells a bot of its seats with a decision: who sits where (public)
    and what the table learned of each seat's occupant from the hands played out there
    (``learned``, one per seat; ``hands``: how many hands it learned from).  Nothing in it
    is a card."""

    seats: tuple[TableSeat, ...]
    learned: tuple[SeatCounts, ...]
    hands: int = 0

    def __post_init__(self) -> None:
        if len(self.learned) != len(self.seats):
            raise ValueError(f"{len(self.learned)} seats learned of, {len(self.seats)} seated")


# The bidder a seat's bids are compared with (None: its bids are not scored).
BidderOf = Callable[[int], Callable[[Observation], int] | None]


def hand_counts(obs: Observation, dealt: tuple[CardSet, ...] | list[CardSet],
                bidder_of: BidderOf) -> dict[int, SeatCounts]:
    """Each seat's counts from one hand played out.  ``obs``: the hand's last observation,
    every bid in (a seat's: the other seats are scored; a spectator's, ``seat`` None: every
    seat); ``dealt``: the hands as dealt, every card known once played out.  Take-or-pass
    hands teach the words said of the whole hand only (which five cards a seat bid with is
    not known), and no bids."""
    rules = obs.ruleset
    whole = rules is not None and not rules.turned_card  # the auction's hand is known
    words: dict[int, list[list[int]]] = {}
    for claim in claims(obs):
        if whole or claim.hand == "dealt":
            tally = words.setdefault(claim.seat, [[0, 0] for _ in KINDS])[KINDS.index(claim.kind)]
            tally[0 if claim.holds_in(dealt[claim.seat]) else 1] += 1
    bids: dict[int, list[int]] = {}
    if whole:
        for move in auction_moves(obs):
            choose = bidder_of(move[0])
            if choose is not None:
                agreed = choose(bid_view(obs, move, dealt[move[0]])) == move[1]
                bids.setdefault(move[0], [0, 0])[0 if agreed else 1] += 1
    return {seat: SeatCounts(tuple((t, f) for t, f in words.get(seat, _NONE)),
                             (bids[seat][0], bids[seat][1]) if seat in bids else (0, 0))
            for seat in words.keys() | bids.keys()}


__all__ = ["BidderOf", "SeatContext", "SeatCounts", "hand_counts"]
