"""Where decks come from: a seed (tests, replays, simulations) or a cryptographic source.

The engine itself never shuffles: it is handed a deck.  A live table uses
:func:`secure_deck_source`, whose order nobody can predict; every deck dealt is kept in the
game's record, so a live game replays exactly even without a seed.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

from belote.cards import NUM_CARDS, Card

DeckSource = Callable[[], list[Card]]


def shuffled_deck(rng: random.Random) -> list[Card]:
    """The 32 cards in the order ``rng`` shuffles them into (a seeded generator, or a
    cryptographic one: ``secrets.SystemRandom`` is a ``random.Random``)."""
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    return deck


def seeded_deck_source(seed: int) -> DeckSource:
    """Decks drawn from a seeded generator: the same seed gives the same decks."""
    rng = random.Random(seed)
    return lambda: shuffled_deck(rng)


def secure_deck_source() -> DeckSource:
    """Decks shuffled with the operating system's cryptographic generator."""
    rng = secrets.SystemRandom()
    return lambda: shuffled_deck(rng)
