"""The fixed action-id space shared by bids, plays and announcements (as OpenSpiel's euchre).

| ids     | action                                                          |
|---------|-----------------------------------------------------------------|
| 0..31   | play card ``id``                                                |
| 32..63  | play card ``id - 32`` and announce belote/rebelote with it      |
| 64      | pass                                                            |
| 65      | take the turned card's suit (round 1)                           |
| 66..69  | name suit ``id - 66`` as trump (round 2)                        |
| 70, 71  | call senza (no trump), tutte (all trump) (italian call)         |
| 72      | announce belote/rebelote for the card just played (any seat)    |

Later bidding systems (auction contracts, declarations) take ids from ``FIRST_FREE`` on.
"""

from __future__ import annotations

from typing import TypeAlias

from belote.cards import NUM_CARDS, Card, Suit

Action: TypeAlias = int

PLAY_BASE = 0
PLAY_ANNOUNCE_BASE = 32
PASS = 64
TAKE = 65
NAME_SUIT_BASE = 66
SENZA = 70
TUTTE = 71
ANNOUNCE_BELOTE = 72
FIRST_FREE = 73


def play(card: Card) -> Action:
    return PLAY_BASE + card


def play_announcing(card: Card) -> Action:
    return PLAY_ANNOUNCE_BASE + card


def name_suit(suit: int) -> Action:
    return NAME_SUIT_BASE + suit


def is_play(action: Action) -> bool:
    return 0 <= action < PLAY_ANNOUNCE_BASE + NUM_CARDS


def played_card(action: Action) -> Card:
    """The card of a play action (with or without the announcement)."""
    return action & 31


def announces(action: Action) -> bool:
    return PLAY_ANNOUNCE_BASE <= action < PLAY_ANNOUNCE_BASE + NUM_CARDS


def is_bid(action: Action) -> bool:
    return PASS <= action <= TUTTE


def named_suit(action: Action) -> Suit:
    return Suit(action - NAME_SUIT_BASE)
