"""The one place where a refusal reason becomes a sentence ("you must follow suit...").

Used by the terminal table, the web room and the engine's IllegalActionError (in English), so
every one of them says the same thing for the same reason.  The reasons themselves come from
:class:`belote.engine.obligations.RefusalReason` (card play) through
:meth:`belote.engine.state.Game.explain_illegal` (turn and phase too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belote.cards import Card
from belote.engine import actions as A
from belote.engine.obligations import RefusalReason
from belote.i18n.catalog import translate
from belote.i18n.names import card_name, suit_name

if TYPE_CHECKING:
    from belote.engine.state import Game

# The catalog message of each reason (error.*).  A card that breaks no obligation but was
# sent with a belote announcement it does not open gets the room's "no belote" sentence.
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
}

_NEEDS_CARD = frozenset({
    RefusalReason.NOT_IN_HAND, RefusalReason.MUST_FOLLOW_SUIT, RefusalReason.MUST_TRUMP,
    RefusalReason.MUST_OVERTRUMP, RefusalReason.MUST_UNDERTRUMP,
})


def refusal_text(reason: RefusalReason, lang: str, *, card: Card | None = None,
                 lead_suit: int | None = None, seat: int | None = None,
                 action: int | None = None) -> str:
    """The sentence for ``reason`` in ``lang``.

    ``card``: the card refused (needed by the card-play reasons); ``lead_suit``: the suit led
    (needed by ``MUST_FOLLOW_SUIT``); ``seat``: name the seat instead of speaking to the player
    ("it is not seat 1's turn", for logs); ``action``: the action id (``UNKNOWN_ACTION``).
    Raises ValueError when a detail the sentence needs is missing.
    """
    if reason in _NEEDS_CARD and card is None:
        raise ValueError(f"the sentence for {reason} names the card refused: pass card=")
    if reason is RefusalReason.MUST_FOLLOW_SUIT and lead_suit is None:
        raise ValueError("the sentence for must_follow_suit names the suit led: pass lead_suit=")
    if reason is RefusalReason.UNKNOWN_ACTION and action is None:
        raise ValueError("the sentence for unknown_action names the action: pass action=")
    key = _KEYS[reason]
    if reason is RefusalReason.NOT_YOUR_TURN and seat is not None:
        key = "error.not_seat_turn"
    the_card = card_name(card, lang, definite=True) if card is not None else ""
    lead = suit_name(lead_suit, lang) if lead_suit is not None else ""
    return translate(lang, key, the_card=the_card, suit=lead, seat=seat, action=action)


def explain(game: Game, action: int, seat: int, lang: str, *, name_seat: bool = False) -> str:
    """Why ``game`` refuses ``action`` by ``seat``, in ``lang`` (``name_seat``: name the seat
    rather than speak to its player).  Raises ValueError if the action is legal."""
    reason = game.explain_illegal(action, seat)
    if reason is None:
        raise ValueError(f"action {action} by seat {seat} is legal: nothing to explain")
    return refusal_text(reason, lang,
                        card=A.played_card(action) if A.is_play(action) else None,
                        lead_suit=game.trick[0] >> 3 if game.trick else None,
                        seat=seat if name_seat else None, action=action)
