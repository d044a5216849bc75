"""Trick tables: who wins a trick, what it is worth.  Which cards may be played is
:mod:`belote.engine.obligations`.

Plain Python over precomputed tables.  A trump code is a suit 0..3, ``NO_TRUMP`` (senza) or
``ALL_TRUMP`` (tutte: every suit ranks in trump order, no suit beats another, and the led
suit plays the part of trump for the overtrump obligation).
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.cards import Card, CardSet, Rank
from belote.engine.events import ALL_TRUMP
from belote.rules.tables import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH

TRUMP_CODES = range(6)


def _key(trump: int, led: int, card: Card) -> int:
    suit, rank = card >> 3, card & 7
    if trump < 4 and suit == trump:
        return 16 + TRUMP_STRENGTH[rank]
    if suit != led:
        return 0
    return 8 + (TRUMP_STRENGTH[rank] if trump == ALL_TRUMP else PLAIN_STRENGTH[rank])


# WIN_KEY[trump][led][card]: larger wins the trick; 0 can never win.
WIN_KEY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_key(t, led, c) for c in range(32)) for led in range(4)) for t in TRUMP_CODES
)


def _points(trump: int, card: Card) -> int:
    suit, rank = card >> 3, card & 7
    is_trump = trump == ALL_TRUMP or suit == trump
    return (TRUMP_POINTS if is_trump else PLAIN_POINTS)[Rank(rank)]


# CARD_POINTS[trump][card]
CARD_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_points(t, c) for c in range(32)) for t in TRUMP_CODES
)

# TRUMP_ABOVE[card]: the cards of the same suit that beat ``card`` in trump order.
TRUMP_ABOVE: tuple[CardSet, ...] = tuple(
    sum(
        1 << ((c & ~7) | r)
        for r in range(8)
        if TRUMP_STRENGTH[r] > TRUMP_STRENGTH[c & 7]
    )
    for c in range(32)
)


def trick_winner(cards: Sequence[Card], trump: int) -> int:
    """Index (0 = leader) of the card that wins the trick so far."""
    keys = WIN_KEY[trump][cards[0] >> 3]
    best = 0
    best_key = keys[cards[0]]
    for i in range(1, len(cards)):
        k = keys[cards[i]]
        if k > best_key:
            best, best_key = i, k
    return best


def trick_points(cards: Sequence[Card], trump: int) -> int:
    points = CARD_POINTS[trump]
    return sum(points[c] for c in cards)
