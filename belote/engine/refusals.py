"""The engine's refusals in plain English: the message of :class:`IllegalActionError`.

The engine speaks English only, for programs, logs and tests; the four languages of the table
are :mod:`belote.i18n.refusals`, which the engine never imports (the layers: rules, engine,
then i18n).  Where the catalogs already said a refusal in English the sentence is theirs, word
for word (``tests/test_obligations.py`` keeps them equal); the belote sentences leave out the
room's keys ("press Space").  The reason's id ends the message, for logs and tests.
"""

from __future__ import annotations

from belote.cards import Card, Rank, Suit
from belote.engine import actions as A
from belote.engine.bidding.conventions import RAISES
from belote.engine.obligations import LevelTable, Refusal, RefusalReason
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
    RefusalReason.BIDDING_OVER: "The bidding is over: cards are played now.",
    RefusalReason.BIDDING_NOT_STARTED: "The bidding has not started: the deck is being cut.",
    RefusalReason.NOT_A_CALL_HERE: "There is no such call in this game.",
    RefusalReason.LEVEL_NOT_IN_TABLE: "There is no contract at {level}.",
    RefusalReason.CONTRACT_TOO_LOW: "{level} is too low: the lowest bid now is {lowest}.",
    RefusalReason.NO_HIGHER_CONTRACT: ("The contract standing is the highest: no higher bid is "
                                       "possible."),
    RefusalReason.AFTER_CONTRO: ("After a double, the only calls are pass and, for the side "
                                 "doubled, redouble."),
    RefusalReason.SUIT_ONLY_OPENS: ("A suit alone only opens the bidding, before any contract: "
                                    "say a level and a suit. The lowest bid now is {lowest}."),
    RefusalReason.SUIT_NEEDS_LEVEL: ("A suit alone is not a bid in this game: say a level and "
                                     "a suit. The lowest bid now is {lowest}."),
    RefusalReason.CONTRO_ONLY_OPPONENTS: "You can double only an opponent's contract.",
    RefusalReason.SURCONTRO_ONLY_AFTER_CONTRO: ("You can redouble only after a double of your "
                                                "side's contract."),
    RefusalReason.SUPPORT_ONLY_PARTNER: "You can say {bid} only on your partner's contract.",
    RefusalReason.NO_PARTNER: "You have no partner: {bid} answers a partner's contract.",
    RefusalReason.RAISE_PAST_TOP: ("You cannot say {bid}: the contract would go to {level}, "
                                   "above the highest, {high}."),
    RefusalReason.JACK_MUST_BE_TAKEN: "The turned card is a jack: the first player must take it.",
    RefusalReason.ROUND_ONE_TAKE_OR_PASS: ("In the first round you may only take the turned "
                                           "card's suit, {suit}, or pass."),
    RefusalReason.TAKE_ONLY_ROUND_ONE: ("The turned card is taken only in the first round: now "
                                        "name a suit other than {suit}, or pass."),
    RefusalReason.TURNED_SUIT_ROUND_TWO: ("In the second round you cannot name {suit}, the "
                                          "turned card's suit: name another suit, or pass."),
    RefusalReason.OVERRIDE_ONLY_SENZA: ("Your partner has named a suit: you may only pass, or "
                                        "call no trump instead."),
}


def _the_card(card: Card) -> str:
    return f"the {Rank(card & 7).name.lower()} of {Suit(card >> 3).name.lower()}"


def _call(action: int) -> str:
    """A support call or raise in the seed's words (the English catalog keeps them)."""
    if action in RAISES:
        word, points = RAISES[action]
        return f"{word} {points}"
    return {A.ANCORA: "ancora", A.ALZO: "alzo"}.get(action, "that call")


def _levels(table: LevelTable) -> str:
    if not table.step:
        return "The contract levels are " + ", ".join(str(n) for n in table.levels) + "."
    then = ", then capot" if table.capot else ""
    return f"Contracts go from {table.low} to {table.high}, in steps of {table.step}{then}."


def refusal_message(refusal: Refusal, action: int, seat: int) -> str:
    """The English sentence of ``refusal`` (of ``action`` by ``seat``), its reason's id last:
    ``You cannot play the nine of diamonds: you must follow suit (spades). (must follow
    suit)``."""
    card = refusal.card
    # The suit a sentence names: the suit led (follow suit), the turned suit (a bid), else
    # the belote's own.
    suit = refusal.led if refusal.reason is RefusalReason.MUST_FOLLOW_SUIT else (
        refusal.suit if refusal.suit is not None else card >> 3 if card is not None else None)
    table = refusal.table
    sentence = ENGLISH[refusal.reason].format(
        the_card=_the_card(card) if card is not None else "the card",
        suit=Suit(suit).name.lower() if suit is not None else "the suit led",
        seat=seat, action=action, bid=_call(action), level=refusal.level,
        lowest=refusal.lowest, high=table.high if table is not None else "the top")
    if refusal.reason is RefusalReason.LEVEL_NOT_IN_TABLE and table is not None:
        now = (f"The lowest bid now is {refusal.lowest}." if refusal.lowest is not None
               else "No contract can be bid now.")
        sentence = f"{sentence} {_levels(table)} {now}"
    return f"{sentence} ({refusal.reason.value.replace('_', ' ')})"


def illegal_action(action: int, seat: int, refusal: Refusal) -> IllegalActionError:
    """The error the engine raises when ``seat`` may not do ``action``: the reason typed, the
    message in English."""
    return IllegalActionError(refusal_message(refusal, action, seat), action=action, seat=seat,
                              reason=refusal.reason)
