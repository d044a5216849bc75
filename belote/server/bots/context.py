"""What a room table knows of its seats, and tells its bots with each decision.

The worker processes keep one bot per level for every table, so a bot may keep nothing of
a table between decisions: the table keeps it, and sends it with each decision as a small
frozen :class:`~belote.ai.models.SeatContext` (the pool passes it to the levels that read
it, belote.server.levels), from which the expert builds its seat models for that decision
alone (:meth:`belote.ai.expert.ExpertBot.decide_at`).

* **Who sits where** (public: the room shows it): a bot's level; a person (a person's seat
  played by a stand-in bot shows that bot while it plays).
* **What the table learned**, per seat occupant (:class:`~belote.ai.models.SeatCounts`):
  from each hand played out at the table, every card of which is public once played, how
  often each seat's conventional words were true of its hand and its bids the normal
  bidder's (:func:`belote.ai.models.learned.hand_counts`), read from the spectator's view
  of the hand before its last card and that card.  A hand that ends before its last card
  (everybody passed, a hand cut short) teaches nothing: its unplayed cards stay hidden (the
  hand is counted in ``hands_skipped``).  A seat whose occupant changed during the hand, or
  that a stand-in played for its person, is not learned of from that hand; a new occupant
  (another person, another bot) starts from nothing.  Only counts are kept, never a card,
  and they never leave the table but in its bots' decisions.

A table with no bot that reads it (no expert) learns nothing, at no cost; with four seats
only (the models read four-seat auctions).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from belote.ai.models import SeatContext, SeatCounts, TableSeat
from belote.ai.models.auction import hands_at_deal
from belote.ai.models.learned import hand_counts
from belote.ai.models.seats import normal_bidder, scored_against_normal
from belote.cards import CardSet
from belote.engine.events import CardPlayed
from belote.engine.observation import Observation
from belote.engine.state import Game, Phase
from belote.server import levels
from belote.server.seats import Seat

log = logging.getLogger(__name__)

# Who occupies a seat, for learning: a person (by account, else session) or a bot level.
Occupant = tuple[str, object] | None
HAND = 8  # a four-seat hand's cards: each is known once all of them are played


def occupant(seat: Seat) -> Occupant:
    if seat.kind == "human":
        return ("person", seat.account if seat.account is not None else seat.owner)
    if seat.kind == "bot":
        return ("bot", seat.level)
    return None


def shown_as(seat: Seat) -> TableSeat:
    """The seat as the table shows it: a bot (its own, or one standing in), or a person."""
    return TableSeat.bot(seat.level) if seat.bot_plays else TableSeat.person()


class TableSeats:
    """One table's knowledge of its seats (see the module docstring); the table calls
    :meth:`seated`, :meth:`dealt`, :meth:`played_for` and, for a hand scored,
    :meth:`lesson` then :meth:`learn` once each change is stored, and sends :attr:`context`
    with its bots' decisions."""

    def __init__(self, players: int, reads_table: Callable[[str], bool] = levels.reads_table
                 ) -> None:
        self.players = players
        self._reads_table = reads_table
        self._occupants: list[Occupant] = [None] * players
        self._at_deal: list[Occupant] = [None] * players  # occupants when the hand was dealt
        self._stood_in: set[int] = set()  # seats a stand-in played for this hand
        self._counts = [SeatCounts()] * players
        self._shown: tuple[TableSeat, ...] = (TableSeat.person(),) * players
        self.learns = False  # some seat's bot reads the table (four seats)
        self.hands_learned = 0
        self.hands_skipped = 0  # ended before their last card: nothing more revealed
        self.context = self._make_context()

    def _make_context(self) -> SeatContext:
        return SeatContext(self._shown, tuple(self._counts), self.hands_learned)

    def seated(self, seats: Sequence[Seat]) -> None:
        """The seating as stored now: a seat with a new occupant starts from nothing."""
        for seat_no, seat in enumerate(seats):
            now = occupant(seat)
            if now != self._occupants[seat_no]:
                self._occupants[seat_no] = now
                self._counts[seat_no] = SeatCounts()
        self._shown = tuple(shown_as(seat) for seat in seats)
        self.learns = self.players == 4 and any(
            seat.kind != "empty" and self._reads_table(seat.level) for seat in seats)
        self.context = self._make_context()

    def dealt(self) -> None:
        self._at_deal = list(self._occupants)
        self._stood_in.clear()

    def played_for(self, seat_no: int) -> None:
        self._stood_in.add(seat_no)

    def wants_view(self, game: Game) -> bool:
        """Whether the next action may be the hand's last card (its view is then kept)."""
        return (self.learns and game.phase == Phase.PLAYING
                and sum(hand.bit_count() for hand in game.hands) == 1)

    def lesson(self, before_last: Observation | None, events: Sequence[object]
               ) -> Lesson | None:
        """What a hand just scored may teach (``before_last``: the spectator's view before
        its last card, None if it ended otherwise); None: nothing (a hand not played out
        is counted in ``hands_skipped``)."""
        if not self.learns:
            return None
        last = next((e for e in events if isinstance(e, CardPlayed)), None)
        dealt = _dealt(before_last, last)
        if before_last is None or dealt is None:
            self.hands_skipped += 1
            log.debug("seat models: a hand ended before its last card; nothing learned "
                      "(%d such hands)", self.hands_skipped)
            return None
        whom = tuple(self._occupants[s] if s not in self._stood_in
                     and self._occupants[s] == self._at_deal[s] else None
                     for s in range(self.players))
        scored = frozenset(s for s in range(self.players)
                           if whom[s] is not None and scored_against_normal(self._shown[s]))
        return Lesson(before_last, dealt, whom, scored)

    def learn(self, lesson: Lesson, counts: Mapping[int, SeatCounts]) -> None:
        """Add a lesson's counts (:meth:`Lesson.counts`) to the seats it teaches of, those
        whose occupant is still the one it saw."""
        for seat_no, whom in enumerate(lesson.occupants):
            if whom is not None and whom == self._occupants[seat_no] and seat_no in counts:
                self._counts[seat_no] = self._counts[seat_no].plus(counts[seat_no])
        self.hands_learned += 1
        self.context = self._make_context()

    def hand_scored(self, before_last: Observation | None, events: Sequence[object]) -> None:
        """:meth:`lesson` and :meth:`learn` at once (a table replaying its log)."""
        lesson = self.lesson(before_last, events)
        if lesson is not None:
            self.learn(lesson, lesson.counts())


@dataclass(frozen=True, slots=True)
class Lesson:
    """A hand played out, every card of it public: the spectator's ``view`` before its
    last card, the hands as ``dealt``, the occupant each seat's counts go to (None: none)
    and the seats whose bids are scored against the normal bidder."""

    view: Observation
    dealt: tuple[CardSet, ...]
    occupants: tuple[Occupant, ...]
    scored: frozenset[int]

    def counts(self) -> dict[int, SeatCounts]:
        """The hand's counts (up to a few milliseconds: a table runs it off its loop; it
        shares nothing, each lesson has its own bidder)."""
        bidder = normal_bidder()
        return hand_counts(self.view, self.dealt,
                           lambda s: bidder if s in self.scored else None)


def _dealt(before_last: Observation | None, last: CardPlayed | None
           ) -> tuple[CardSet, ...] | None:
    """Each seat's hand as dealt, from the cards played (public), once all were."""
    if before_last is None or last is None or before_last.seat is not None:
        return None
    hands = list(hands_at_deal(before_last, [0] * len(before_last.hand_sizes)))
    hands[last.seat] |= 1 << last.card
    if len(hands) != 4 or any(hand.bit_count() != HAND for hand in hands):
        return None
    return tuple(hands)


__all__ = ["Lesson", "TableSeats", "occupant", "shown_as"]
