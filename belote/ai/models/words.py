"""What a conventional word or signal claims about the hand of the seat that gave it.

The reading is the engine's (:class:`belote.engine.convention_evidence.ConventionEvidence`:
passo no ace, aspetto at least one, ancora/alzo and the seed 000 raises a count of the
partner's suit and an honour, a discard signal an ace held or not); here each statement
becomes a :class:`Claim` with its kind, so that a model can trust each kind of word of each
seat on its own (:mod:`belote.ai.models.seats`), checked on a world (:meth:`Claim.holds`)
or, once the hand is over, on the real deal (the model learns from it).
"""

from __future__ import annotations

from dataclasses import dataclass

from belote.ai.worlds import ConventionEvidence
from belote.cards import ACES, CardSet
from belote.engine.evidence import World
from belote.engine.observation import Observation

# The kinds of claims, each with its own trust per seat
PASSO, ASPETTO, SUPPORT, SIGNAL = "passo", "aspetto", "support", "signal"
KINDS = (PASSO, ASPETTO, SUPPORT, SIGNAL)

_READER = ConventionEvidence()


@dataclass(frozen=True)
class Claim:
    """``seat`` said its hand (``hand``: "first", the cards it held at the auction, or
    "dealt") holds exactly ``count`` of ``cards`` (``count < 0``: at least ``-count``)."""

    seat: int
    kind: str
    hand: str
    cards: CardSet
    count: int

    def holds_in(self, cards: CardSet) -> bool:
        held = (cards & self.cards).bit_count()
        return held >= -self.count if self.count < 0 else held == self.count

    def holds(self, world: World) -> bool:
        hands = world.first if self.hand == "first" else world.dealt
        return self.holds_in(hands[self.seat])


def _kind(hand: str, cards: CardSet, count: int) -> str:
    if hand == "dealt":
        return SIGNAL
    if cards == ACES:
        return PASSO if count == 0 else ASPETTO
    return SUPPORT


def claims(obs: Observation) -> tuple[Claim, ...]:
    """The claims the seats other than ``obs.seat`` made so far this hand."""
    return tuple(Claim(seat, _kind(hand, cards, count), hand, cards, count)
                 for seat, hand, cards, count, _odds in _READER.statements(obs)
                 if seat != obs.seat)
