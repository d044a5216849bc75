"""Card and action notation at the edges: ``parse_*`` / ``to_*`` pairs that round-trip.

Cards: rank ``7 8 9 10 J Q K A`` (``T`` is accepted for ten) followed by a suit letter
``H D C S`` or symbol ``♥ ♦ ♣ ♠``: "JH", "10H", "TH", "J♥".  Full names in four languages are
in :mod:`belote.i18n` ("fante di cuori", "jack of hearts").  Actions: a card ("KH"), a card
announcing belote ("KH+belote"), and the words below.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from belote.cards import Card, CardSet, cards_in
from belote.engine import actions as A
from belote.errors import InvalidNotationError
from belote.rules.vocabulary import RANK_CODES as RANK_CODES  # defined with the rules

if TYPE_CHECKING:
    from belote.rules.base import Rules

SUIT_LETTERS = ("H", "D", "C", "S")
SUIT_SYMBOLS = ("♥", "♦", "♣", "♠")
_RANK_INPUT = {code: i for i, code in enumerate(RANK_CODES)} | {"T": 3}
_SUIT_INPUT = (
    {c: i for i, c in enumerate(SUIT_LETTERS)}
    | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
    | {"♡": 0, "♢": 1, "♧": 2, "♤": 3}
)
SUIT_WORDS = ("hearts", "diamonds", "clubs", "spades")
TRUMP_WORDS = (*SUIT_WORDS, "senza", "tutte")


def parse_card(text: str) -> Card:
    """Parse "JH", "10H", "TH", "J♥" (any case, surrounding spaces ignored)."""
    code = text.strip().upper()
    rank, suit = code[:-1], code[-1:]
    if rank not in _RANK_INPUT or suit not in _SUIT_INPUT:
        raise InvalidNotationError(f"not a card: {text!r} (examples: JH, 10H, TH, J♥)")
    return _SUIT_INPUT[suit] * 8 + _RANK_INPUT[rank]


def to_card(card: Card, symbols: bool = False) -> str:
    """ "JH" (or "J♥" with ``symbols``); the ten is written "10"."""
    if not 0 <= card < 32:
        raise InvalidNotationError(f"not a card index: {card!r}")
    suits = SUIT_SYMBOLS if symbols else SUIT_LETTERS
    return RANK_CODES[card & 7] + suits[card >> 3]


def parse_cards(text: str) -> CardSet:
    """A space- or comma-separated list of cards as a mask; duplicates are an error."""
    mask = 0
    for token in text.replace(",", " ").split():
        card = parse_card(token)
        if mask >> card & 1:
            raise InvalidNotationError(f"card {token!r} is listed twice")
        mask |= 1 << card
    return mask


def to_cards(cards: CardSet | Iterable[Card], symbols: bool = False) -> str:
    seq = cards_in(cards) if isinstance(cards, int) else cards
    return " ".join(to_card(c, symbols) for c in seq)


_WORD_ACTIONS = (
    {
        "pass": A.PASS,
        "take": A.TAKE,
        "senza": A.SENZA,
        "tutte": A.TUTTE,
        "belote": A.ANNOUNCE_BELOTE,
        "aspetto": A.ASPETTO,
        "ancora": A.ANCORA,
        "alzo": A.ALZO,
        "contro": A.CONTRO,
        "surcontro": A.SURCONTRO,
        "declare": A.DECLARE,
        "ottava": A.OTTAVA,
        "knock": A.KNOCK,
        "show?": A.REQUEST_SHOW,
        "refute": A.REFUTE,
        "bluff": A.BLUFF,
        "do10": A.DO_10,
        "do20": A.DO_20,
        "ancora10": A.ANCORA_10,
        "ancora20": A.ANCORA_20,
        "alzo10": A.ALZO_10,
        "alzo20": A.ALZO_20,
    }
    | {word: A.NAME_SUIT_BASE + suit for suit, word in enumerate(SUIT_WORDS)}
    | {f"declare:{name}": A.DECLARE_NAME_BASE + i for i, name in enumerate(A.DECLARE_NAMES)}
)
_ACTION_WORDS = {action: word for word, action in _WORD_ACTIONS.items()}


def parse_action(text: str, rules: Rules | None = None) -> A.Action:
    """Parse an action; an auction contract ("92H", "250S") needs the rules' level table
    (without it, "#3H" names level index 3)."""
    word = text.strip().lower()
    if word in _WORD_ACTIONS:
        return _WORD_ACTIONS[word]
    if word.startswith("cut") and word[3:].isdigit() and 0 < int(word[3:]) < 32:
        return A.cut(int(word[3:]))
    if word.endswith("+belote"):
        return A.PLAY_ANNOUNCE_BASE + parse_card(word[: -len("+belote")])
    try:
        return A.PLAY_BASE + parse_card(word)
    except InvalidNotationError:
        pass
    contract = _parse_contract(word, rules)
    if contract is None:
        raise InvalidNotationError(f"not an action: {text!r}")
    return contract


def _parse_contract(word: str, rules: Rules | None) -> A.Action | None:
    level, suit = word[:-1], word[-1:].upper()
    if suit not in _SUIT_INPUT:
        return None
    if level.startswith("#") and level[1:].isdigit():
        return A.contract_bid(int(level[1:]), _SUIT_INPUT[suit])
    if level.isdigit() and rules is not None and rules.auction is not None:
        levels = rules.auction.levels
        if int(level) in levels:
            return A.contract_bid(levels.index(int(level)), _SUIT_INPUT[suit])
    return None


def to_action(action: A.Action, rules: Rules | None = None) -> str:
    if A.is_play(action):
        card = to_card(A.played_card(action))
        return card + "+belote" if A.announces(action) else card
    if A.CONTRACT_BASE <= action < A.CONTRACT_END:
        index, suit = A.contract_level_index(action), SUIT_LETTERS[A.contract_suit(action)]
        if rules is not None and rules.auction is not None and index < len(rules.auction.levels):
            return f"{rules.auction.levels[index]}{suit}"
        return f"#{index}{suit}"
    if action > A.CUT_BASE and A.is_cut(action):
        return f"cut{A.cut_depth(action)}"
    try:
        return _ACTION_WORDS[action]
    except KeyError:
        raise InvalidNotationError(f"not an action id: {action!r}") from None


def to_trump(trump: int) -> str:
    return TRUMP_WORDS[trump]
