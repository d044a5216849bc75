"""Reading a bid typed by a player, in any of the catalog languages: one parser for the
terminal (``belote play``) and the web room's command box.

A bid is understood from the catalogs themselves: the label of any legal non-card action in
any language ("passo", "contro", "name hearts", "prends"), a contract as a level and a suit
with or without the catalog's connecting word ("82 cuori", "100 a corazones", "92H",
"capot à pique"), or a suit alone when naming that suit is a legal bid.  Matching ignores
case, accents and extra spaces (:func:`belote.i18n.parse.normalize`).

A refused text says why, in the player's language, from the engine's reason
(:meth:`belote.engine.state.Game.refusal_of`, :meth:`~belote.engine.state.Game.contract_refusal`):
:func:`refused_bid_text` ("82 is too low: the lowest bid now is 122"; "There is no contract
at 900. Contracts go from 82 to 802..."), :func:`bid_examples` for a text that names no bid
("You can say, for example: pass, 122 in hearts"), :func:`no_bid_now` while no bid is open
(the card play).  The terminal and the web room say the same sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from belote.engine import actions as A
from belote.engine.obligations import RefusalReason
from belote.i18n.catalog import LANGUAGES, translate
from belote.i18n.names import action_name, join_list, suit_name
from belote.i18n.parse import normalize
from belote.i18n.refusals import call_label, refusal_sentence
from belote.notation import SUIT_LETTERS, SUIT_SYMBOLS
from belote.rules import Rules

if TYPE_CHECKING:
    from belote.engine.state import Game

_COMPACT = re.compile(r"^(\d+)\s*([a-z\u2660-\u2667]+)$")


class BidNotUnderstood(ValueError):
    """The text names no bid in any language."""


class BidNotAllowed(ValueError):
    """The text names a bid, but that bid is not legal now: ``action``, the bid named, or
    ``level`` and ``suit``, a contract at a level the table does not have ("900 cuori")."""

    def __init__(self, text: str, action: int | None = None, *, level: int | None = None,
                 suit: int | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.action = action
        self.level = level
        self.suit = suit


@cache
def _suit_words() -> dict[str, int]:
    words: dict[str, int] = {}
    for suit in range(4):
        for lang in LANGUAGES:
            words[normalize(suit_name(suit, lang))] = suit
        words[SUIT_LETTERS[suit].lower()] = suit
        words[SUIT_SYMBOLS[suit]] = suit
    return words


@cache
def _connectors() -> tuple[frozenset[str], frozenset[str]]:
    """The words around ``{level}`` and ``{suit}`` in the contract patterns of every language
    (``in``, ``a``, ``à``), and the capot words (``capot``, ``cappotto``, ``capote``)."""
    joins: set[str] = set()
    capots: set[str] = set()
    for lang in LANGUAGES:
        plain = normalize(translate(lang, "action.contract", level="0", suit="x"))
        joins.update(w for w in plain.split() if w not in ("0", "x"))
        capot = normalize(translate(lang, "action.contract.capot", suit="x"))
        words = [w for w in capot.split() if w != "x"]
        if words:
            capots.add(words[0])
            joins.update(words[1:])
    return frozenset(joins), frozenset(capots)


def _suit_of(word: str) -> int | None:
    return _suit_words().get(normalize(word))


def _contract(text: str, rules: Rules | None) -> tuple[int, int] | None:
    """The contract ``text`` names under ``rules`` as (level, suit), the level as typed, a
    level of the table or not ("900 cuori"); None when it names no contract."""
    auction = None if rules is None else rules.auction
    if auction is None:
        return None
    folded = normalize(text).replace(",", " ")
    compact = _COMPACT.match(folded)
    words = [compact.group(1), compact.group(2)] if compact else folded.split()
    joins, capots = _connectors()
    level: int | None = None
    suit: int | None = None
    for word in words:
        if word.isascii() and word.isdigit() and level is None:
            level = int(word)
        elif word in capots and level is None and auction.capot_level:
            level = auction.capot_level
        elif _suit_of(word) is not None and suit is None:
            suit = _suit_of(word)
        elif word not in joins:
            return None
    if level is None or suit is None:
        return None
    return level, suit


def bid_labels(action: int, rules: Rules | None) -> set[str]:
    """Every normalized way of writing ``action``'s label, in every language, with and
    without its parenthesis ("passo (senza asso)" is also "passo")."""
    labels: set[str] = set()
    for lang in LANGUAGES:
        label = normalize(action_name(action, lang, rules))
        labels.add(label)
        labels.add(label.split(" (")[0].strip())
        if action == A.PASS:  # "pass" is understood whatever word the auction uses
            labels.update(normalize(translate(lang, f"action.{k}")) for k in ("pass", "passo"))
            labels.update(normalize(translate(lang, "action.passo")).split(" (")[:1])
    return labels


def parse_bid(text: str, legal: Sequence[int], rules: Rules | None) -> int:
    """The legal bid (or declaration) ``text`` asks for.

    Raises :class:`BidNotUnderstood` if ``text`` names no bid, :class:`BidNotAllowed` if it
    names one that is not among ``legal`` now.

    >>> from belote.rules import find_preset
    >>> rules = find_preset("valdostana")
    >>> parse_bid("82 cuori", [A.PASS, A.contract_bid(0, 0)], rules) == A.contract_bid(0, 0)
    True
    """
    folded = normalize(text)
    if not folded:
        raise BidNotUnderstood(text)
    options = [a for a in legal if not A.is_play(a) and a != A.ANNOUNCE_BELOTE]
    for action in options:
        if folded in bid_labels(action, rules):
            return action
    if not any(A.is_bid(a) for a in options):
        raise BidNotUnderstood(text)  # cards are being played: "7H" is a card, not a level
    contract = _contract(text, rules)
    if contract is not None and rules is not None and rules.auction is not None:
        level, trump = contract
        if level not in rules.auction.levels:  # "900 cuori": the sentence gives the table
            raise BidNotAllowed(text, level=level, suit=trump)
        action = A.contract_bid(rules.auction.levels.index(level), trump)
        if action in options:
            return action
        raise BidNotAllowed(text, action)
    suit = _suit_of(folded)
    if suit is not None:
        named = A.name_suit(suit)
        if named in options:
            return named
        raise BidNotAllowed(text, named)
    # A label of a bid that exists but is not open now ("contro" before any contract).
    for action in _ALWAYS_NAMED:
        if folded in bid_labels(action, rules):
            raise BidNotAllowed(text, action)
    raise BidNotUnderstood(text)


_ALWAYS_NAMED = (A.PASS, A.TAKE, A.SENZA, A.TUTTE, A.ASPETTO, A.ANCORA, A.ALZO, A.CONTRO,
                 A.SURCONTRO, A.DECLARE, A.OTTAVA,
                 *range(A.CONVENTION_BASE, A.CONVENTION_END))


def completions(legal: Sequence[int], rules: Rules | None, lang: str) -> list[str]:
    """What the command box offers to complete: every legal bid's label in ``lang``."""
    return [action_name(a, lang, rules) for a in legal
            if not A.is_play(a) and a != A.ANNOUNCE_BELOTE]


def bid_examples(legal: Sequence[int], rules: Rules | None, lang: str) -> str:
    """A few calls that may be made now, in ``lang``, as one sentence ("You can say, for
    example: pass, 122 in hearts, double."): a pass, the lowest contract, one other call."""
    bids = [a for a in legal if A.is_bid(a)]
    contracts = [a for a in bids if A.CONTRACT_BASE <= a < A.CONTRACT_END]
    passes = [a for a in bids if a == A.PASS]
    others = [a for a in bids if a != A.PASS and a not in contracts]
    chosen = [*passes, *contracts[:1], *others][:3]
    if not chosen:
        return ""
    return translate(lang, "error.bid.examples",
                     examples=join_list((call_label(a, lang, rules) for a in chosen), lang))


def refused_bid_text(game: Game, seat: int, refused: BidNotAllowed, lang: str) -> str:
    """Why the bid a typed text names is refused to ``seat``, in ``lang``: the engine's reason
    with its facts ("82 is too low: the lowest bid now is 122"), and, for a call these rules
    do not have, a few calls that may be made now."""
    if refused.action is not None:
        refusal = game.refusal_of(refused.action, seat)
    elif refused.level is not None:
        refusal = game.contract_refusal(refused.level, refused.suit or 0, seat)
    else:
        refusal = None
    if refusal is None:  # legal for the engine, not among the options the caller offered
        return translate(lang, "error.bid_not_allowed")
    sentence = refusal_sentence(refusal, lang, action=refused.action, rules=game.rules)
    if refusal.reason in (RefusalReason.NOT_A_CALL_HERE, RefusalReason.BID_NOT_ALLOWED):
        examples = bid_examples(game.legal_actions(seat), game.rules, lang)
        sentence = f"{sentence} {examples}".strip()
    return sentence


def no_bid_now(game: Game, seat: int, lang: str) -> str | None:
    """Why no bid at all is open to ``seat`` now, in ``lang`` (the engine's reason: "The
    bidding is over: cards are played now."), or None while ``seat`` may bid."""
    if any(A.is_bid(a) for a in game.legal_actions(seat)):
        return None
    refusal = game.refusal_of(A.PASS, seat)
    return None if refusal is None else refusal_sentence(refusal, lang, rules=game.rules)
