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
| 73      | aspetto: a pass saying "I hold at least one ace" (64 is passo)  |
| 74, 75  | ancora, alzo: support passes on the partner's contract          |
| 76, 77  | contro (double), surcontro (redouble)                           |
| 78      | declare every sequence and carré held (first trick, in turn)    |
| 79..82  | declare by name only: tierce, cinquante, cent, carré (valdostana)|
| 83      | ottava: show all eight cards of a suit and win the match        |
| 84      | knock on the deck: trust the dealer, no cut (seed 000)          |
| 85      | ask the opponents to show their declarations (second trick)     |
| 86      | refute an opponent's sequence: his declaration must be shown    |
| 87      | bluff: announce a sequence equal to an opponent's, not held     |
| 90..95  | do/ancora/alzo 10, 20: raise the partner's contract (valdostana)  |
| 100+    | auction contract: ``100 + 4 * level_index + suit``              |
| 420+    | cut the deck at depth ``id - 420`` (1..31 cards moved under)    |
"""

from __future__ import annotations

from typing import TypeAlias

from belote.cards import NUM_CARDS, Card, Suit
from belote.rules.vocabulary import SPOKEN_NAMES

Action: TypeAlias = int

PLAY_BASE = 0
PLAY_ANNOUNCE_BASE = 32
PASS = 64
TAKE = 65
NAME_SUIT_BASE = 66
SENZA = 70
TUTTE = 71
ANNOUNCE_BELOTE = 72
ASPETTO = 73
ANCORA = 74
ALZO = 75
CONTRO = 76
SURCONTRO = 77
DECLARE = 78
DECLARE_NAME_BASE = 79
DECLARE_NAMES = SPOKEN_NAMES  # ids 79..82, in order (defined with the rule vocabulary)
OTTAVA = 83
KNOCK = 84  # seed 000: "fidarsi bussando sul mazzo"
REQUEST_SHOW = 85  # seed 000: "Alla seconda mano può essere richiesto di mostrare"
# Seed 000 (italian), "Mossa Leccese": "Nel caso in cui la squadra avversaria potesse
# confutare la terza dichiarata in maniera fasulla, può farlo e guadagnarsi altri 20 punti".
REFUTE = 86
BLUFF = 87  # "è possibile dichiararne una fasulla uguale" (a sequence one does not hold)
# Seed 000 "Risposte di Appoggio nel colore del compagno": DO/ANCORA/ALZO 10/20, each raising
# the partner's standing contract by 10 or 20 in its suit (belote.engine.bidding.conventions).
CONVENTION_BASE = 90
DO_10, DO_20, ANCORA_10, ANCORA_20, ALZO_10, ALZO_20 = range(CONVENTION_BASE, CONVENTION_BASE + 6)
CONVENTION_END = CONVENTION_BASE + 6
# Ids 88, 89 and 96..99 are unused; FIRST_FREE is the first of them (90..95 are named above).
FIRST_FREE = 88
CONTRACT_BASE = 100
MAX_LEVELS = 80  # contract ids run from CONTRACT_BASE to CONTRACT_END
CONTRACT_END = CONTRACT_BASE + 4 * MAX_LEVELS
# Seed 000: "pone al giocatore alla sua sinistra il taglio del mazzo": the top ``depth`` cards
# go under the rest.  Ids CUT_BASE + 1 .. CUT_BASE + 31.
CUT_BASE = CONTRACT_END
ACTION_END = CUT_BASE + NUM_CARDS  # every action id is below this


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
    return (
        PASS <= action <= TUTTE
        or ASPETTO <= action <= SURCONTRO
        or CONVENTION_BASE <= action < CONVENTION_END
        or CONTRACT_BASE <= action < CONTRACT_END
    )


def contract_bid(level_index: int, suit: int) -> Action:
    return CONTRACT_BASE + 4 * level_index + suit


def contract_level_index(action: Action) -> int:
    return (action - CONTRACT_BASE) >> 2


def contract_suit(action: Action) -> int:
    return (action - CONTRACT_BASE) & 3


def is_declaration(action: Action) -> bool:
    return DECLARE <= action < DECLARE_NAME_BASE + len(DECLARE_NAMES)


def is_table_talk(action: Action) -> bool:
    """The non-card extras of the card play that the table hears: a declaration, the ottava,
    a request to show, a refute or a bluff (the terminal and the room offer them together)."""
    return is_declaration(action) or action in (OTTAVA, REQUEST_SHOW, REFUTE, BLUFF)


def cut(depth: int) -> Action:
    return CUT_BASE + depth


def is_cut(action: Action) -> bool:
    """A cut at some depth, or the knock that trusts the dealer (depth 0)."""
    return action == KNOCK or CUT_BASE < action < ACTION_END


def cut_depth(action: Action) -> int:
    """How many cards a cut moves under the deck (0: a knock)."""
    return 0 if action == KNOCK else action - CUT_BASE


def named_suit(action: Action) -> Suit:
    return Suit(action - NAME_SUIT_BASE)
