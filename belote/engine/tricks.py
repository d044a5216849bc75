"""Trick rules: which cards may be played, who wins a trick, what it is worth.

Plain Python over precomputed tables.  A trump code is a suit 0..3, ``NO_TRUMP`` (senza) or
``ALL_TRUMP`` (tutte: every suit ranks in trump order, no suit beats another, and the led
suit plays the part of trump for the overtrump obligation).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from belote.cards import SUIT_MASKS, Card, CardSet
from belote.engine.events import ALL_TRUMP
from belote.rules.base import Rules
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
    return (TRUMP_POINTS if is_trump else PLAIN_POINTS)[rank]


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

IllegalReason = Literal[
    "must_follow_suit", "must_overtrump", "must_trump", "must_undertrump", "not_in_hand"
]


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


def legal_plays(hand: CardSet, trick: Sequence[Card], trump: int, rules: Rules) -> CardSet:
    """The cards of ``hand`` that may be played on ``trick`` (cards so far, leader first).

    Seed 002: follow the led suit; else trump unless partner is master; if someone has
    trumped, trump higher if able; discard only with neither led suit nor trump.
    """
    n = len(trick)
    if n == 0:
        return hand
    led = trick[0] >> 3
    follow = hand & SUIT_MASKS[led]
    trump_suit = trump if trump < 4 else (led if trump == ALL_TRUMP else -1)
    if trump_suit < 0:
        return follow or hand
    if follow and rules.must_follow_suit:
        if led == trump_suit and rules.must_overtrump:
            best = trick[trick_winner(trick, trump)]
            higher = follow & TRUMP_ABOVE[best]
            if higher:
                return higher
        return follow
    if led == trump_suit or trump == ALL_TRUMP:
        return hand
    trumps = hand & SUIT_MASKS[trump_suit]
    if not trumps or not rules.must_trump:
        return hand
    winner = trick_winner(trick, trump)
    if rules.partner_master_frees and winner == n - 2:
        return hand
    best = trick[winner]
    if best >> 3 == trump_suit:
        if rules.must_overtrump:
            higher = trumps & TRUMP_ABOVE[best]
            if higher:
                return higher
        return trumps if rules.must_undertrump else hand
    return trumps


def illegal_reason(
    card: Card, hand: CardSet, trick: Sequence[Card], trump: int, rules: Rules
) -> IllegalReason | None:
    """Why ``card`` may not be played now (None if it may), for clear error messages."""
    if not hand >> card & 1:
        return "not_in_hand"
    legal = legal_plays(hand, trick, trump, rules)
    if legal >> card & 1:
        return None
    led = trick[0] >> 3
    suit = card >> 3
    if suit != led and hand & SUIT_MASKS[led]:
        return "must_follow_suit"
    if suit in (led, trump):
        return "must_overtrump"
    best = trick[trick_winner(trick, trump)]
    if best >> 3 == trump:
        return "must_overtrump" if legal & TRUMP_ABOVE[best] else "must_undertrump"
    return "must_trump"
