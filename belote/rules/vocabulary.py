"""Rule vocabulary: the codes and names every layer shares, defined once here.

The engine, notation, scorekeeper, bots and catalogs import these (the rules never import the
engine, so the definitions live on this side).
"""

from __future__ import annotations

# A trump code is a suit 0..3 (hearts, diamonds, clubs, spades) or one of these whole-hand
# modes of the italian call: senza (no trump) and tutte (every suit is trump).
NO_TRUMP = 4
ALL_TRUMP = 5

# Rank codes by rank index (natural order 7 8 9 10 J Q K A), as written in card notation and
# in declaration names ("carre_J").
RANK_CODES: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")

# What a valdostana player says when declaring by name only (seed 000, "Terzo/Tiers/Tierce",
# "Cinquanta/Cinquante", "Cento/Cent (5/+ carte)", "Carré"): a sequence of 3, 4, 5 or more
# cards, or a carré.
SPOKEN_NAMES: tuple[str, ...] = ("tierce", "cinquante", "cent", "carre")


def spoken_sequence_name(length: int) -> str:
    """The spoken name of a sequence of ``length`` cards (3 or more)."""
    return SPOKEN_NAMES[min(max(length, 3), 5) - 3]


__all__ = ["ALL_TRUMP", "NO_TRUMP", "RANK_CODES", "SPOKEN_NAMES", "spoken_sequence_name"]
