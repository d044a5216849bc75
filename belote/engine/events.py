"""Events: every state change of a game is one of these, in order.

An event is public unless ``private_to`` names the one seat that may see it (a seat's own
cards).  Consumers (announcer, terminal, server, records, bots) read events; nothing else
mutates a game.  ``kind`` is the snake-case name used by message catalogs and the wire format.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from belote.cards import Card, CardSet

# A trump code: a suit 0..3, or one of the whole-hand modes of the italian call; defined with
# the rule vocabulary, re-exported here for the engine's readers.
from belote.rules.vocabulary import ALL_TRUMP as ALL_TRUMP
from belote.rules.vocabulary import NO_TRUMP as NO_TRUMP


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    @property
    def private_to(self) -> int | None:
        return None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        owner = self.private_to
        return owner is None or owner == seat

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"] = self.kind
        return data


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    preset: str
    target: int
    first_dealer: int


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A deal.  ``hand_no`` counts the hands scored before it, from 1: an all-pass redeal
    deals the same hand again, its ``redeal`` numbered from 1 (0: the hand's first deal)."""

    hand_no: int
    dealer: int
    turned: Card | None  # None when all eight cards are dealt at once (auction)
    redeal: int = 0


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Cards given to one seat: the first five, or the completion after the bidding."""

    seat: int
    cards: CardSet

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    seat: int
    action: int
    round: int


@dataclass(frozen=True, slots=True)
class AllPassed(Event):
    hand_no: int  # the hand to be dealt again (as HandStarted counts it)
    next_dealer: int


@dataclass(frozen=True, slots=True)
class ContractSet(Event):
    taker: int
    trump: int
    level: int = 0  # auction level; 0 for take-or-pass
    multiplier: int = 1  # contro x2, surcontro x4


@dataclass(frozen=True, slots=True)
class DeckCut(Event):
    """Seed 000: the player at the dealer's left cuts, or knocks on the deck (depth 0)."""

    seat: int
    depth: int


@dataclass(frozen=True, slots=True)
class TurnedCardTaken(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card
    trick_no: int
    led: int | None = None  # the suit led in this trick; None: this card leads it


@dataclass(frozen=True, slots=True)
class BeloteAnnounced(Event):
    seat: int
    word: str  # "belote" or "rebelote"
    suit: int


@dataclass(frozen=True, slots=True)
class DeclarationAnnounced(Event):
    """A player announces declarations in the first trick (names only: "sequence_4"...)."""

    seat: int
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DeclarationsResolved(Event):
    """After the first trick: which team's declarations score, and how much."""

    team: int | None
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DeclarationsShown(Event):
    """At the second trick a scoring declaration is shown: its cards become public."""

    seat: int
    names: tuple[str, ...]
    cards: CardSet


@dataclass(frozen=True, slots=True)
class ShowRequested(Event):
    """A player asks the other side to show its declarations (``refute``: he challenges an
    announced sequence as fake, the "Mossa Leccese" of seed 000)."""

    seat: int
    refute: bool = False


@dataclass(frozen=True, slots=True)
class BluffRefuted(Event):
    """A refuted fake declaration: ``seat`` announced a sequence he did not hold; ``team``
    (the refuters) scores ``points`` (seed 000: "guadagnarsi altri 20 punti")."""

    seat: int
    team: int
    points: int


@dataclass(frozen=True, slots=True)
class OttavaShown(Event):
    """Italian ottava: all eight cards of a suit shown; the match is won at once."""

    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    seat: int
    trick_no: int
    leader: int
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """The hand's result; pairs are indexed by team (0: seats 0 and 2, 1: seats 1 and 3).
    ``hand_no``: this hand's number, as :class:`HandStarted` says it (the hands scored, this
    one included); ``deal_no``: the deal, counted from 1 with the redeals (a record's deal)."""

    hand_no: int
    taker: int
    outcome: str  # "made", "failed" or "litige"
    capot_team: int | None
    card_points: tuple[int, ...]
    belote: tuple[int, ...]
    scores: tuple[int, ...]
    pot: int
    pot_winner: int | None
    pot_won: int
    totals: tuple[int, ...]
    declarations: tuple[int, ...] = (0, 0)
    deal_no: int = 0


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winner: int
    totals: tuple[int, ...]


_ALL_EVENTS: tuple[type[Event], ...] = (
    MatchStarted,
    DeckCut,
    HandStarted,
    CardsDealt,
    BidMade,
    AllPassed,
    ContractSet,
    TurnedCardTaken,
    CardPlayed,
    BeloteAnnounced,
    DeclarationAnnounced,
    DeclarationsResolved,
    DeclarationsShown,
    OttavaShown,
    TrickWon,
    HandScored,
    MatchOver,
    ShowRequested,
    BluffRefuted,
)
for _cls in _ALL_EVENTS:
    _cls.kind = _snake(_cls.__name__)
EVENT_TYPES: dict[str, type[Event]] = {cls.kind: cls for cls in _ALL_EVENTS}


def event_from_dict(data: dict[str, Any]) -> Event:
    cls = EVENT_TYPES[data["kind"]]
    # A field added later with a default (CardPlayed.led) may be absent from older dicts.
    values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
    for key, value in values.items():
        if isinstance(value, list):
            values[key] = tuple(value)
    return cls(**values)
