"""Reading a bid typed by a player, in any of the catalog languages: one parser for the
terminal (``belote play``) and the web room's command box.

A bid is understood from the catalogs themselves: the label of any legal non-card action in
any language ("passo", "contro", "name hearts", "prends"), a contract as a level and a suit
with or without the catalog's connecting word ("82 cuori", "100 a corazones", "92H",
"capot à pique"), or a suit alone when naming that suit is a legal bid.  Matching ignores
case, accents and extra spaces (:func:`belote.i18n.parse.normalize`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from belote.engine import actions as A
from belote.i18n.catalog import LANGUAGES, translate
from belote.i18n.names import action_name, suit_name
from belote.i18n.parse import normalize
from belote.notation import SUIT_LETTERS, SUIT_SYMBOLS
from belote.rules import Rules

_COMPACT = re.compile(r"^(\d+)\s*([a-z\u2660-\u2667]+)$")


class BidNotUnderstood(ValueError):
    """The text names no bid in any language."""


class BidNotAllowed(ValueError):
    """The text names a bid, but that bid is not legal now."""


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


def _contract(text: str, rules: Rules | None) -> int | None:
    """The contract id ``text`` names under ``rules``, or None when it names no contract."""
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
        if word.isdigit() and level is None:
            level = int(word)
        elif word in capots and level is None and auction.capot_level:
            level = auction.capot_level
        elif _suit_of(word) is not None and suit is None:
            suit = _suit_of(word)
        elif word not in joins:
            return None
    if level is None or suit is None:
        return None
    if level not in auction.levels:
        return None  # not a level of this table: quoted back as not understood
    return A.contract_bid(auction.levels.index(level), suit)


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
    if contract is not None:
        if contract in options:
            return contract
        raise BidNotAllowed(text)
    suit = _suit_of(folded)
    if suit is not None:
        named = A.name_suit(suit)
        if named in options:
            return named
        raise BidNotAllowed(text)
    # A label of a bid that exists but is not open now ("contro" before any contract).
    for action in _ALWAYS_NAMED:
        if folded in bid_labels(action, rules):
            raise BidNotAllowed(text)
    raise BidNotUnderstood(text)


_ALWAYS_NAMED = (A.PASS, A.TAKE, A.SENZA, A.TUTTE, A.ASPETTO, A.ANCORA, A.ALZO, A.CONTRO,
                 A.SURCONTRO, A.DECLARE, A.OTTAVA,
                 *range(A.CONVENTION_BASE, A.CONVENTION_END))


def completions(legal: Sequence[int], rules: Rules | None, lang: str) -> list[str]:
    """What the command box offers to complete: every legal bid's label in ``lang``."""
    return [action_name(a, lang, rules) for a in legal
            if not A.is_play(a) and a != A.ANNOUNCE_BELOTE]
