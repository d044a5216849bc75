"""The card-play obligations, in one place: which cards may be played, why a card is refused,
why belote cannot be announced, and what a card played proves about the hand it came from.

The engine (:mod:`belote.engine.state`), the compiled kernels' rule flags
(:func:`belote.engine.search.rule_flags`, one bit per name of :data:`OBLIGATION_FIELDS`) and the
expert's world sampling (:mod:`belote.engine.knowledge`) all read the rules through this module,
so a flag cannot mean one thing to the engine and another to a bot.

The obligations (RULES.md "Card play obligations"), each a flag of :class:`Rules`:

* ``must_follow_suit``: play the led suit if able.  Off, a player holding the led suit may play
  any card; the trump obligations still bind a player void in the led suit ("void in led suit
  and holding trump: must trump").
* ``must_trump``: void in the led suit and holding trump: trump;
* ``partner_master_frees``: ...unless partner wins the trick so far (then any card; only
  with four players, the only ones with partners);
* ``must_overtrump``: with a trump on the table (led or ruffed), play a higher trump if able;
* ``must_undertrump``: unable to overtrump and void in the led suit: still play a (lower) trump.

A trump code is a suit 0..3, ``NO_TRUMP`` (senza) or ``ALL_TRUMP`` (tutte: the led suit plays
the part of trump for the overtrump obligation).

Every refusal is a :class:`RefusalReason` with the details its sentence names
(:class:`Refusal`): the engine's IllegalActionError carries it in plain English
(:mod:`belote.engine.refusals`), :mod:`belote.i18n.refusals` says it in the four languages,
and nothing else works out why an action is refused.  A refused bid gets its precise reason from
its bidding system (``refusal`` of :mod:`belote.engine.bidding`), with the facts its sentence
names: the lowest contract allowed now, the table's levels, the turned suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import TYPE_CHECKING

from belote.cards import SUIT_MASKS, Card, CardSet, Rank, make_card
from belote.engine import actions as A
from belote.engine.events import ALL_TRUMP
from belote.engine.tricks import TRUMP_ABOVE, trick_winner
from belote.rules.base import Rules

if TYPE_CHECKING:
    from belote.engine.observation import Observation

# Every field of Rules that changes which cards may be played, in the kernels' bit order
# (bit i of the packed flags is field i).  tests/test_kernels_twin.py checks that it names
# every obligation field, so a new flag cannot be left out of the kernels or the inference.
OBLIGATION_FIELDS: tuple[str, ...] = (
    "partner_master_frees",
    "must_overtrump",
    "must_undertrump",
    "must_trump",
    "must_follow_suit",
)


class RefusalReason(StrEnum):
    """Why an action is refused.  The card-play obligations first, then the turn and phase
    reasons of :meth:`belote.engine.state.Game.explain_illegal`.  The value is a stable id
    (records, logs); :func:`belote.i18n.refusals.refusal_text` turns a reason into a sentence."""

    NOT_IN_HAND = "not_in_hand"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    MUST_TRUMP = "must_trump"
    MUST_OVERTRUMP = "must_overtrump"
    MUST_UNDERTRUMP = "must_undertrump"
    NOT_YOUR_TURN = "not_your_turn"
    CARDS_NOT_BEING_PLAYED = "cards_not_being_played"
    BID_NOT_ALLOWED = "bid_not_allowed"
    DECLARATION_NOT_ALLOWED = "declaration_not_allowed"
    NO_BELOTE_TO_ANNOUNCE = "no_belote_to_announce"
    CARD_DOES_NOT_OPEN_A_BELOTE = "card_does_not_open_a_belote"
    UNKNOWN_ACTION = "unknown_action"
    # Why the holder of the belote cannot announce it now (:func:`belote_refusal`), each a
    # precise NO_BELOTE_TO_ANNOUNCE: the queen selected while the king must come first; the
    # announcement goes with a card (the one named); the next player has played; the queen
    # came before the king.
    NO_BELOTE_KING_FIRST = "no_belote_king_first"
    NO_BELOTE_WITHOUT_CARD = "no_belote_without_card"
    NO_BELOTE_WINDOW_CLOSED = "no_belote_window_closed"
    NO_BELOTE_ORDER_BROKEN = "no_belote_order_broken"
    # Why a bid is refused, each a precise BID_NOT_ALLOWED (the bidding systems'
    # ``refusal``; BID_NOT_ALLOWED itself is left for a bid no rule below explains).
    # The phase: no bid during the card play, nor while the deck is cut.
    BIDDING_OVER = "bidding_over"
    BIDDING_NOT_STARTED = "bidding_not_started"
    # A call these rules do not have (aspetto in coinche, senza in classic, contro in a
    # take-or-pass game...).
    NOT_A_CALL_HERE = "not_a_call_here"
    # The auction: a level outside the table (as typed: 50, 900, 85); a contract not above the
    # standing one (``lowest``: the lowest allowed now); none higher than the standing one; a
    # call after contro (only passes, and surcontro by the side doubled); a suit alone when a
    # contract stands (the suit-only opening) or without the convention; contro without an
    # opponents' contract; surcontro without a contro on one's own side's contract; a support
    # call or raise without the partner's standing contract, with no partner at all, or past
    # the table's top.
    LEVEL_NOT_IN_TABLE = "level_not_in_table"
    CONTRACT_TOO_LOW = "contract_too_low"
    NO_HIGHER_CONTRACT = "no_higher_contract"
    AFTER_CONTRO = "after_contro"
    SUIT_ONLY_OPENS = "suit_only_opens"
    SUIT_NEEDS_LEVEL = "suit_needs_level"
    CONTRO_ONLY_OPPONENTS = "contro_only_opponents"
    SURCONTRO_ONLY_AFTER_CONTRO = "surcontro_only_after_contro"
    SUPPORT_ONLY_PARTNER = "support_only_partner"
    NO_PARTNER = "no_partner"
    RAISE_PAST_TOP = "raise_past_top"
    # Take-or-pass: a turned jack the first player must take (``jack_oblige``); only take or
    # pass in round 1; the turned card is taken in round 1 only; its suit, refused in round 1,
    # cannot be named in round 2; after a partner's round-2 suit, only pass or senza.
    JACK_MUST_BE_TAKEN = "jack_must_be_taken"
    ROUND_ONE_TAKE_OR_PASS = "round_one_take_or_pass"
    TAKE_ONLY_ROUND_ONE = "take_only_round_one"
    TURNED_SUIT_ROUND_TWO = "turned_suit_round_two"
    OVERRIDE_ONLY_SENZA = "override_only_senza"


@dataclass(frozen=True, slots=True)
class LevelTable:
    """An auction's contract levels as a sentence names them: from ``low`` to ``high`` (the
    highest level but the capot) every ``step`` points, then the ``capot`` level (0: none);
    ``step`` 0 when the levels are unevenly spaced, and only then ``levels`` lists them."""

    low: int
    high: int
    step: int
    capot: int
    levels: tuple[int, ...]

    @classmethod
    def of(cls, levels: Sequence[int], capot: int = 0) -> LevelTable:
        plain = [level for level in levels if level != capot] or list(levels)
        steps = {b - a for a, b in pairwise(plain)}
        step = steps.pop() if len(steps) == 1 else 0
        return cls(plain[0], plain[-1], step, capot if capot in levels else 0,
                   () if step else tuple(levels))


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused action: why, and what the sentence for it names.

    ``card``: the card refused (a card play), or the card the belote turns on (the queen played
    or selected too soon, the card to announce it with); ``led``: the suit led
    (``MUST_FOLLOW_SUIT``).

    A refused bid: ``level``, the level asked for (a contract, or the level a raise would
    reach); ``lowest``, the lowest contract level allowed now (None: no contract may be bid
    now); ``table``, the auction's levels; ``suit``, the turned card's suit (take-or-pass) or
    the suit named alone."""

    reason: RefusalReason
    card: Card | None = None
    led: int | None = None
    level: int | None = None
    lowest: int | None = None
    table: LevelTable | None = None
    suit: int | None = None


def _trump_suit(trump: int, led: int) -> int:
    """The suit that ruffs on this trick: the trump suit, the led suit in tutte, -1 in senza."""
    if trump < 4:
        return trump
    return led if trump == ALL_TRUMP else -1


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
    if follow and not rules.must_follow_suit:
        return hand  # holding the led suit: not void, so no trump obligation either
    trump_suit = _trump_suit(trump, led)
    if trump_suit < 0:
        return follow or hand
    if follow:
        if led == trump_suit and rules.must_overtrump:
            best = trick[trick_winner(trick, trump)]
            higher = follow & TRUMP_ABOVE[best]
            if higher:
                return higher
        return follow
    if led == trump_suit:
        return hand
    trumps = hand & SUIT_MASKS[trump_suit]
    if not trumps or not rules.must_trump:
        return hand
    winner = trick_winner(trick, trump)
    if rules.partner_master_frees and rules.partners and winner == n - 2:
        return hand
    best = trick[winner]
    if best >> 3 == trump_suit:
        if rules.must_overtrump:
            higher = trumps & TRUMP_ABOVE[best]
            if higher:
                return higher
        return trumps if rules.must_undertrump else hand
    return trumps


def refusal(card: Card, hand: CardSet, trick: Sequence[Card], trump: int,
            rules: Rules) -> RefusalReason | None:
    """Why ``card`` may not be played from ``hand`` on ``trick`` (None if it may)."""
    if not hand >> card & 1:
        return RefusalReason.NOT_IN_HAND
    legal = legal_plays(hand, trick, trump, rules)
    if legal >> card & 1:
        return None
    led = trick[0] >> 3
    suit = card >> 3
    if suit != led and legal & SUIT_MASKS[led]:
        return RefusalReason.MUST_FOLLOW_SUIT
    trump_suit = _trump_suit(trump, led)
    if suit in (led, trump_suit):  # the right suit, refused: only a higher card was allowed
        return RefusalReason.MUST_OVERTRUMP
    best = trick[trick_winner(trick, trump)]
    if best >> 3 == trump_suit:  # a discard over a ruff
        higher = legal & TRUMP_ABOVE[best]
        if higher and rules.must_overtrump:
            return RefusalReason.MUST_OVERTRUMP
        if not higher:
            return RefusalReason.MUST_UNDERTRUMP  # only lower trumps, and still owed
        return RefusalReason.MUST_TRUMP  # any trump, higher or lower
    return RefusalReason.MUST_TRUMP


def belote_refusal(obs: Observation, card: Card | None = None) -> Refusal | None:
    """Why the seat of ``obs`` cannot announce belote now (None if it may); ``card`` is the
    card the player has selected, if any.  The rule that applies (RULES.md "Belote"): the king
    first (``belote_king_first``), the announcement goes with the card, or the window closed
    with the next card; else there is no belote to announce.  Reads the seat's own
    observation only, so a room may ask it of every hand it shows."""
    rules = obs.ruleset
    trump = obs.trump
    if A.ANNOUNCE_BELOTE in obs.legal_actions:
        return None
    if trump is None or not 0 <= trump < 4 or rules is None:
        return Refusal(RefusalReason.NO_BELOTE_TO_ANNOUNCE)
    king, queen = make_card(trump, Rank.KING), make_card(trump, Rank.QUEEN)
    held = {c for c in (king, queen) if obs.hand >> c & 1}
    mine_played = {c for leader, cards in obs.tricks for i, c in enumerate(cards)
                   if (leader + i) % rules.players == obs.seat and c in (king, queen)}
    mine_played |= {c for s, c in obs.trick if s == obs.seat and c in (king, queen)}
    said = {word for s, word in obs.belote_said if s == obs.seat}
    if held == {king, queen}:
        if card == queen and rules.belote_king_first:
            return Refusal(RefusalReason.NO_BELOTE_KING_FIRST, queen)
        opener = king if rules.belote_king_first or card not in held else card
        return Refusal(RefusalReason.NO_BELOTE_WITHOUT_CARD, opener)
    if held and mine_played and len(held | mine_played) == 2:
        first = next(iter(mine_played))
        if rules.belote_king_first and first == queen:
            return Refusal(RefusalReason.NO_BELOTE_ORDER_BROKEN, queen)
        if not said:
            return Refusal(RefusalReason.NO_BELOTE_WINDOW_CLOSED)
        return Refusal(RefusalReason.NO_BELOTE_WITHOUT_CARD, next(iter(held)))
    if mine_played and len(mine_played) == 2 and len(said) < 2:
        return Refusal(RefusalReason.NO_BELOTE_WINDOW_CLOSED)
    return Refusal(RefusalReason.NO_BELOTE_TO_ANNOUNCE)


def proven_absent(trick: Sequence[Card], card: Card, trump: int, rules: Rules) -> CardSet:
    """The cards that the player of ``card`` on ``trick`` (the cards before it, leader first)
    cannot have held: with any of them, the obligations in force would have refused ``card``.

    One fact per flag, each only while its flag is on: did not follow, so void in the led suit
    (``must_follow_suit``); did not trump, so no trump (``must_trump``, unless partner was
    master and ``partner_master_frees``); did not overtrump, so no trump above the best one on
    the table (``must_overtrump``); discarded over a ruff, so no trump at all
    (``must_undertrump``).  With ``must_follow_suit`` off a discard proves nothing: the player
    may hold the led suit, which frees every card.  Tests check these facts against
    :func:`legal_plays` (sound: no legal hand holds a card named here; tight: every other card
    is in some hand that makes ``card`` legal).
    """
    if not trick or not rules.must_follow_suit:
        return 0
    led = trick[0] >> 3
    suit = card >> 3
    trump_suit = _trump_suit(trump, led)
    best = trick[trick_winner(trick, trump)]
    if suit == led:
        if led == trump_suit and rules.must_overtrump and not TRUMP_ABOVE[best] >> card & 1:
            return TRUMP_ABOVE[best]  # followed trump without overtrumping: none higher
        return 0
    absent = SUIT_MASKS[led]  # did not follow: void in the led suit
    if trump_suit < 0 or led == trump_suit or not rules.must_trump:
        return absent
    if (rules.partner_master_frees and rules.partners
            and trick_winner(trick, trump) == len(trick) - 2):
        return absent
    best_is_trump = best >> 3 == trump_suit
    if suit != trump_suit:  # discarded while a trump was owed
        if not best_is_trump or rules.must_undertrump:
            return absent | SUIT_MASKS[trump_suit]  # no trump at all
        if rules.must_overtrump:
            return absent | TRUMP_ABOVE[best]  # only an overtrump was owed: none higher
        return absent
    if best_is_trump and rules.must_overtrump and not TRUMP_ABOVE[best] >> card & 1:
        return absent | TRUMP_ABOVE[best]  # undertrumped: none higher
    return absent


def could_have_played(hands: Sequence[CardSet], tricks: Sequence[tuple[int, Sequence[Card]]],
                      trump: int, rules: Rules) -> bool:
    """Whether players holding ``hands`` now (by seat) could have played ``tricks`` (each
    ``(leader, cards)``, oldest first, the last one possibly unfinished) by the obligations:
    each card legal from the hand it came from, which held the cards its seat played since.

    :func:`proven_absent` gives what each card proves card by card; some obligations prove
    only an either-or (follow suit off: a discard over a trump owed shows the led suit or no
    trump), which this check enforces on whole hands.
    """
    held = list(hands)
    n = rules.players
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            held[(leader + i) % n] |= 1 << card
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            if not legal_plays(held[seat], cards[:i], trump, rules) >> card & 1:
                return False
            held[seat] &= ~(1 << card)
    return True
