"""The engine's refusals in plain English: the message of :class:`IllegalActionError`.

The engine speaks English only, for programs, logs and tests; the four languages of the table
are :mod:`belote.i18n.refusals`, which the engine never imports (the layers: rules, engine,
then i18n).  Where the catalogs already said a refusal in English the sentence is theirs, word
for word (``tests/test_obligations.py`` keeps them equal); the belote sentences leave out the
room's keys ("press Space").  The reason's id ends the message, for logs and tests.
"""

from __future__ import annotations

from belote.cards import Card, Rank, Suit
from belote.engine.obligations import Refusal, RefusalReason
from belote.errors import IllegalActionError

_YOU_CANNOT = "You cannot play {the_card}: "
ENGLISH: dict[RefusalReason, str] = {
    RefusalReason.NOT_IN_HAND: "You do not have {the_card}.",
    RefusalReason.MUST_FOLLOW_SUIT: _YOU_CANNOT + "you must follow suit ({suit}).",
    RefusalReason.MUST_TRUMP: _YOU_CANNOT + "you must trump.",
    RefusalReason.MUST_OVERTRUMP: _YOU_CANNOT + "you must play a higher trump.",
    RefusalReason.MUST_UNDERTRUMP: _YOU_CANNOT + "you must still play a trump, even a lower one.",
    RefusalReason.NOT_YOUR_TURN: "It is not seat {seat}'s turn.",
    RefusalReason.CARDS_NOT_BEING_PLAYED: "Bidding is not over: you cannot play a card yet.",
    RefusalReason.BID_NOT_ALLOWED: "That bid is not allowed now.",
    RefusalReason.DECLARATION_NOT_ALLOWED: "That declaration is not allowed now.",
    RefusalReason.NO_BELOTE_TO_ANNOUNCE: "You have no belote to announce.",
    RefusalReason.CARD_DOES_NOT_OPEN_A_BELOTE: "You have no belote to announce.",
    RefusalReason.UNKNOWN_ACTION: "There is no action {action}.",
    RefusalReason.NO_BELOTE_KING_FIRST: ("Not with the queen: play the king of {suit} first, "
                                         "announcing belote; rebelote comes with the queen."),
    RefusalReason.NO_BELOTE_WITHOUT_CARD: ("Belote is announced with the card: play {the_card} "
                                           "announcing belote."),
    RefusalReason.NO_BELOTE_WINDOW_CLOSED: ("Too late: belote is announced just after the "
                                            "card, before the next player plays."),
    RefusalReason.NO_BELOTE_ORDER_BROKEN: ("No belote: the queen of {suit} was played before "
                                           "the king."),
}


def _the_card(card: Card) -> str:
    return f"the {Rank(card & 7).name.lower()} of {Suit(card >> 3).name.lower()}"


def refusal_message(refusal: Refusal, action: int, seat: int) -> str:
    """The English sentence of ``refusal`` (of ``action`` by ``seat``), its reason's id last:
    ``You cannot play the nine of diamonds: you must follow suit (spades). (must follow
    suit)``."""
    card = refusal.card
    # The suit a sentence names: the suit led (follow suit), else the belote's own.
    suit = refusal.led if refusal.reason is RefusalReason.MUST_FOLLOW_SUIT else (
        card >> 3 if card is not None else None)
    sentence = ENGLISH[refusal.reason].format(
        the_card=_the_card(card) if card is not None else "the card",
        suit=Suit(suit).name.lower() if suit is not None else "the suit led",
        seat=seat, action=action)
    return f"{sentence} ({refusal.reason.value.replace('_', ' ')})"


def illegal_action(action: int, seat: int, refusal: Refusal) -> IllegalActionError:
    """The error the engine raises when ``seat`` may not do ``action``: the reason typed, the
    message in English."""
    return IllegalActionError(refusal_message(refusal, action, seat), action=action, seat=seat,
                              reason=refusal.reason)
