"""The day's deals: derived from the room's secret and the UTC date, so that every process
of the room deals the same cards and nobody without the secret can compute them.

Deal ``n`` (from 1) of day ``D`` is the deck shuffled by a generator seeded with
HMAC-SHA256(secret, "belote-daily|D|n"); its dealer is seat ``(n - 1) % 4`` (the entrant,
always at seat 0, deals the first deal, then each seat in turn: every entrant meets every
position of the auction the same number of times).  No setting of the deal depends on who
plays it or when.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import date

from belote.engine.dealing import seeded_deck_source

PRESET = "classic"  # one preset for every day (docs/room.md says why)
LEVEL = "normal"  # the bots' level: the same for everyone, deterministic in what it sees
ENTRANT_SEAT = 0  # the entrant's seat on every deal (team 0, with the bot at seat 2)
SEATS = 4


@dataclass(frozen=True, slots=True)
class DayDeal:
    """One of the day's deals: its number (from 1), its deck and its dealer's seat."""

    number: int
    deck: tuple[int, ...]
    dealer: int


def deal_of_day(secret: str, day: date, number: int) -> DayDeal:
    """Deal ``number`` (1 to the day's count) of ``day``."""
    if number < 1:
        raise ValueError("the day's deals are numbered from 1")
    if not secret:
        raise ValueError("the day's deals need the room's secret")
    digest = hmac.new(secret.encode(), f"belote-daily|{day.isoformat()}|{number}".encode(),
                      hashlib.sha256).digest()
    deck = seeded_deck_source(int.from_bytes(digest, "big"))()
    return DayDeal(number, tuple(deck), (number - 1) % SEATS)


def deals_of_day(secret: str, day: date, count: int) -> list[DayDeal]:
    """The ``count`` deals of ``day``."""
    return [deal_of_day(secret, day, n) for n in range(1, count + 1)]
