"""The one place where a refusal reason becomes a sentence ("you must follow suit...").

Used by the terminal table and the web room, so both say the same thing for the same reason,
in the four languages.  The reasons, with what their sentences name, are the engine's
(:class:`belote.engine.obligations.Refusal`, through :meth:`belote.engine.state.Game.refusal_of`
and, for the belote, :func:`belote.engine.obligations.belote_refusal`): nothing here works out
why an action is refused.  The engine's own IllegalActionError says it in plain English
(:mod:`belote.engine.refusals`, the same English sentences; a test keeps them equal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belote.cards import Card
from belote.engine.obligations import LevelTable, Refusal, RefusalReason
from belote.i18n.catalog import translate
from belote.i18n.names import action_name, card_name, join_list, suit_name

if TYPE_CHECKING:
    from belote.engine.state import Game
    from belote.rules import Rules

# The catalog message of each reason (error.*; the belote's precise reasons: sala.belote.*).
# A card that breaks no obligation but was sent with a belote announcement it does not open
# gets the room's "no belote" sentence.
_KEYS: dict[RefusalReason, str] = {
    RefusalReason.NOT_IN_HAND: "error.not_in_hand",
    RefusalReason.MUST_FOLLOW_SUIT: "error.must_follow_suit",
    RefusalReason.MUST_TRUMP: "error.must_trump",
    RefusalReason.MUST_OVERTRUMP: "error.must_overtrump",
    RefusalReason.MUST_UNDERTRUMP: "error.must_undertrump",
    RefusalReason.NOT_YOUR_TURN: "error.not_your_turn",
    RefusalReason.CARDS_NOT_BEING_PLAYED: "error.bidding_in_progress",
    RefusalReason.BID_NOT_ALLOWED: "error.bid_not_allowed",
    RefusalReason.DECLARATION_NOT_ALLOWED: "error.declaration_not_allowed",
    RefusalReason.NO_BELOTE_TO_ANNOUNCE: "error.no_belote_to_announce",
    RefusalReason.CARD_DOES_NOT_OPEN_A_BELOTE: "error.no_belote_to_announce",
    RefusalReason.UNKNOWN_ACTION: "error.unknown_action",
    RefusalReason.NO_BELOTE_KING_FIRST: "sala.belote.king_first",
    RefusalReason.NO_BELOTE_WITHOUT_CARD: "sala.belote.with_card",
    RefusalReason.NO_BELOTE_WINDOW_CLOSED: "sala.belote.too_late",
    RefusalReason.NO_BELOTE_ORDER_BROKEN: "sala.belote.order_broken",
}

# Every other reason is a bid's: its message is error.bid.<reason> (derived, so that a new
# reason of the engine needs its sentence in the catalogs, which the catalog tests check).
_KEYS.update({reason: f"error.bid.{reason.value}" for reason in RefusalReason
              if reason not in _KEYS})

# The belote sentences that name the suit of the card the belote turns on.
_NAMES_BELOTE_SUIT = frozenset({RefusalReason.NO_BELOTE_KING_FIRST,
                                RefusalReason.NO_BELOTE_ORDER_BROKEN})
_NEEDS_CARD = frozenset({
    RefusalReason.NOT_IN_HAND, RefusalReason.MUST_FOLLOW_SUIT, RefusalReason.MUST_TRUMP,
    RefusalReason.MUST_OVERTRUMP, RefusalReason.MUST_UNDERTRUMP,
    RefusalReason.NO_BELOTE_WITHOUT_CARD, *_NAMES_BELOTE_SUIT,
})
# The bid refusals' facts (Refusal's fields), by the reasons whose sentences name them;
# ``action``: the call refused, named by its label ("alzo 10").
_NEEDS_FACTS: dict[str, frozenset[RefusalReason]] = {
    "level": frozenset({RefusalReason.LEVEL_NOT_IN_TABLE, RefusalReason.CONTRACT_TOO_LOW,
                        RefusalReason.RAISE_PAST_TOP}),
    "lowest": frozenset({RefusalReason.CONTRACT_TOO_LOW, RefusalReason.SUIT_ONLY_OPENS,
                         RefusalReason.SUIT_NEEDS_LEVEL}),
    "table": frozenset({RefusalReason.LEVEL_NOT_IN_TABLE, RefusalReason.RAISE_PAST_TOP}),
    "suit": frozenset({RefusalReason.ROUND_ONE_TAKE_OR_PASS, RefusalReason.TAKE_ONLY_ROUND_ONE,
                       RefusalReason.TURNED_SUIT_ROUND_TWO}),
    "action": frozenset({RefusalReason.UNKNOWN_ACTION, RefusalReason.SUPPORT_ONLY_PARTNER,
                         RefusalReason.NO_PARTNER, RefusalReason.RAISE_PAST_TOP}),
}


def refusal_text(reason: RefusalReason, lang: str, *, card: Card | None = None,
                 lead_suit: int | None = None, seat: int | None = None,
                 action: int | None = None) -> str:
    """The sentence for ``reason`` in ``lang``.

    ``card``: the card refused (needed by the card-play reasons), or the card the belote
    turns on (``NO_BELOTE_WITHOUT_CARD``: the card to announce it with; ``NO_BELOTE_KING_FIRST``,
    ``NO_BELOTE_ORDER_BROKEN``: the queen); ``lead_suit``: the suit led (needed by
    ``MUST_FOLLOW_SUIT``); ``seat``: name the seat instead of speaking to the player ("it is
    not seat 1's turn", for logs); ``action``: the action id (``UNKNOWN_ACTION``).
    A bid refusal names more facts: :func:`refusal_sentence`, with the engine's ``Refusal``.
    Raises ValueError when a detail the sentence needs is missing.
    """
    return refusal_sentence(Refusal(reason, card, lead_suit), lang, seat=seat, action=action)


def refusal_sentence(refusal: Refusal, lang: str, *, seat: int | None = None,
                     action: int | None = None, rules: Rules | None = None) -> str:
    """The sentence for the engine's ``refusal`` in ``lang`` (``seat``, ``action``: as
    :func:`refusal_text`; ``rules``: the rules that label the call refused).  A bid refusal
    says the facts the engine gives with it: "82 is too low: the lowest bid now is 122."
    Raises ValueError when a detail the sentence needs is missing."""
    reason, card = refusal.reason, refusal.card
    lead_suit = refusal.led
    if reason in _NEEDS_CARD and card is None:
        raise ValueError(f"the sentence for {reason} names the card refused: pass card=")
    if reason is RefusalReason.MUST_FOLLOW_SUIT and lead_suit is None:
        raise ValueError("the sentence for must_follow_suit names the suit led: pass lead_suit=")
    facts = {"level": refusal.level, "lowest": refusal.lowest, "table": refusal.table,
             "suit": refusal.suit, "action": action}
    for fact, reasons in _NEEDS_FACTS.items():
        if reason in reasons and facts[fact] is None:
            raise ValueError(f"the sentence for {reason.value} names the {fact}: pass {fact}=")
    key = _KEYS[reason]
    if reason is RefusalReason.NOT_YOUR_TURN and seat is not None:
        key = "error.not_seat_turn"
    the_card = card_name(card, lang, definite=True) if card is not None else ""
    if card is not None and reason in _NAMES_BELOTE_SUIT:
        lead_suit = card >> 3
    if refusal.suit is not None and reason is not RefusalReason.MUST_FOLLOW_SUIT:
        lead_suit = refusal.suit  # a bid's: the turned card's suit
    suit = suit_name(lead_suit, lang) if lead_suit is not None else ""
    plain = (card_name(card, lang)  # "select the {card}": the article is the sentence's
             if card is not None and reason is RefusalReason.NO_BELOTE_WITHOUT_CARD else "")
    bid = (call_label(action, lang, rules)
           if action is not None and reason in _NEEDS_FACTS["action"]
           and reason is not RefusalReason.UNKNOWN_ACTION else "")
    high = refusal.table.high if refusal.table is not None else ""
    sentence = translate(lang, key, the_card=the_card, card=plain, suit=suit, seat=seat,
                         action=action, bid=bid, level=refusal.level, lowest=refusal.lowest,
                         high=high)
    if reason is RefusalReason.LEVEL_NOT_IN_TABLE:
        assert refusal.table is not None  # checked above
        return " ".join((sentence, levels_sentence(refusal.table, lang),
                         lowest_sentence(refusal.lowest, lang)))
    return sentence


def call_label(action: int, lang: str, rules: Rules | None) -> str:
    """The call's label without its gloss: "alzo 10", not "alzo 10 (three trumps...)"."""
    return action_name(action, lang, rules).split(" (")[0].strip()


def levels_sentence(table: LevelTable, lang: str) -> str:
    """The contract levels of an auction: "Contracts go from 80 to 160, in steps of 10,
    then capot."; an uneven table is listed."""
    if not table.step:
        return translate(lang, "error.bid.levels_list",
                         levels=join_list((str(level) for level in table.levels), lang))
    key = "error.bid.levels_capot" if table.capot else "error.bid.levels"
    return translate(lang, key, low=table.low, high=table.high, step=table.step)


def lowest_sentence(lowest: int | None, lang: str) -> str:
    """"The lowest bid now is 122.", or that no contract may be bid now."""
    if lowest is None:
        return translate(lang, "error.bid.none_now")
    return translate(lang, "error.bid.lowest_now", lowest=lowest)


def explain(game: Game, action: int, seat: int, lang: str, *, name_seat: bool = False) -> str:
    """Why ``game`` refuses ``action`` by ``seat``, in ``lang`` (``name_seat``: name the seat
    rather than speak to its player).  Raises ValueError if the action is legal."""
    refusal = game.refusal_of(action, seat)
    if refusal is None:
        raise ValueError(f"action {action} by seat {seat} is legal: nothing to explain")
    return refusal_sentence(refusal, lang, seat=seat if name_seat else None, action=action,
                            rules=game.rules)
