"""Cards as ints, hands and tricks as bits of a 32-bit int.

A card is ``suit * 8 + rank`` (0..31), so each suit is one byte of a ``CardSet`` mask and the
ranks inside a byte run in the natural sequence order 7 8 9 10 J Q K A: a sequence of
declarations is a run of adjacent bits.  Suits are numbered in the order used to break ties
between equal declarations (hearts > diamonds > clubs > spades, "Come Quando Fuori Piove").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import TypeAlias

Card: TypeAlias = int
CardSet: TypeAlias = int


class Suit(IntEnum):
    HEARTS = 0
    DIAMONDS = 1
    CLUBS = 2
    SPADES = 3


class Rank(IntEnum):
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
NUM_CARDS = 32
ALL_CARDS: CardSet = (1 << NUM_CARDS) - 1
EMPTY: CardSet = 0
SUIT_MASKS: tuple[CardSet, ...] = tuple(0xFF << (8 * s) for s in SUITS)
ACES: CardSet = sum(1 << (8 * s + Rank.ACE) for s in SUITS)


def make_card(suit: int, rank: int) -> Card:
    return suit * 8 + rank


def suit_of(card: Card) -> Suit:
    return SUITS[card >> 3]


def rank_of(card: Card) -> Rank:
    return RANKS[card & 7]


def bit(card: Card) -> CardSet:
    return 1 << card


def cards_in(mask: CardSet) -> Iterator[Card]:
    """Yield the cards of ``mask`` from the lowest index up."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(suit * 8 + r for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)
_H, _D, _C, _S = _BYTE_CARDS


def card_list(mask: CardSet) -> list[Card]:
    """The cards of ``mask`` in index order (table lookup per suit byte: a hot path)."""
    return [*_H[mask & 255], *_D[mask >> 8 & 255], *_C[mask >> 16 & 255], *_S[mask >> 24 & 255]]


def to_mask(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def count(mask: CardSet) -> int:
    return mask.bit_count()


def lowest(mask: CardSet) -> Card:
    """The lowest-index card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def suit_cards(mask: CardSet, suit: int) -> CardSet:
    return mask & (0xFF << (8 * suit))


def full_deck() -> list[Card]:
    return list(range(NUM_CARDS))
