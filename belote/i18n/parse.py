"""Reading card names typed by a player, in any of the catalog languages.

The lookup is built from the catalogs themselves (``card.rank.*``, ``card.the.*``,
``card.suit.*`` and the ``card.name`` pattern), so a corrected translation is understood at once.
Matching ignores case, accents, apostrophes and extra spaces, and accepts the short form without
the preposition ("fante cuori", "valet coeur") and the number of a low card ("10 coeur").
:func:`parse_card_play` is what a player types to play a card, at the terminal table and in the
web room's command box alike: the card's notation or its name, and the belote announced with it.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from belote.cards import RANKS, SUITS, Card, make_card
from belote.engine import actions as A
from belote.errors import InvalidNotationError
from belote.i18n.catalog import LANGUAGES, check_language, translate
from belote.i18n.names import RANK_KEYS, SUIT_KEYS, action_name
from belote.notation import RANK_CODES, parse_card

_LIGATURES = str.maketrans(
    {"œ": "oe", "æ": "ae", "ß": "ss", "'": " ", "\u2019": " ", "`": " "}
)
_AMBIGUOUS = -1


def normalize(text: str) -> str:
    """Casefolded, accent-free, single-spaced form of ``text`` used for matching."""
    folded = unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES))
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(plain.strip(" \t\r\n.!;").split())


def _names(lang: str) -> dict[str, Card]:
    pattern = translate(lang, "card.name", rank="\0rank\0", suit="\0suit\0")
    table: dict[str, Card] = {}
    for suit in SUITS:
        suit_word = translate(lang, f"card.suit.{SUIT_KEYS[suit]}")
        for rank in RANKS:
            card = make_card(suit, rank)
            words = [translate(lang, f"card.{group}.{RANK_KEYS[rank]}")
                     for group in ("rank", "the")]
            if RANK_CODES[rank].isdigit():  # "10 de coeur": a low card by its number
                words.append(RANK_CODES[rank])
            for rank_word in words:
                full = pattern.replace("\0rank\0", rank_word).replace(
                    "\0suit\0", suit_word
                )
                for form in (full, f"{rank_word} {suit_word}"):
                    key = normalize(form)
                    table[key] = card if table.get(key, card) == card else _AMBIGUOUS
    return table


@cache
def _lookup(lang: str | None) -> dict[str, Card]:
    if lang is not None:
        return _names(lang)
    merged: dict[str, Card] = {}
    for each in LANGUAGES:
        for key, card in _names(each).items():
            merged[key] = card if merged.get(key, card) == card else _AMBIGUOUS
    return merged


def parse_card_name(text: str, lang: str | None = None) -> Card:
    """The card named by ``text`` in ``lang`` (default: any catalog language).

    >>> parse_card_name("Valet de coeur")
    4
    >>> parse_card_name("fante  cuori", "it")
    4
    """
    if lang is not None:
        check_language(lang)
    card = _lookup(lang).get(normalize(text))
    where = f"in {lang!r}" if lang is not None else f"in any of {', '.join(LANGUAGES)}"
    if card is None:
        raise InvalidNotationError(f"not a card name {where}: {text!r}")
    if card == _AMBIGUOUS:
        raise InvalidNotationError(f"ambiguous card name {where}: {text!r}")
    return card


@cache
def is_belote_word(text: str) -> bool:
    """Whether ``text`` is the belote announcement alone ("belote", "rebelote", "annuncio
    belote"), in any language."""
    return normalize(text) in _belote_words()


def _belote_words() -> frozenset[str]:
    """What may follow a card to announce the belote with it, in every language: the
    announcement's words ("belote", "rebelote") and the action's label ("annuncio belote")."""
    words: set[str] = set()
    for lang in LANGUAGES:
        for key in ("announce.belote", "announce.rebelote"):
            words.add(normalize(translate(lang, key)))
        words.add(normalize(action_name(A.ANNOUNCE_BELOTE, lang, None)))
    return frozenset(words)


def _card(text: str, lang: str | None) -> Card:
    try:
        return parse_card(text)
    except InvalidNotationError:
        pass
    if lang is not None:
        try:
            return parse_card_name(text, lang)
        except InvalidNotationError:
            pass  # a name in another language is understood too
    return parse_card_name(text)


def parse_card_play(text: str, lang: str | None = None) -> int:
    """The play a player typed: a card's notation ("JH", "10♥") or its name (``lang``'s
    first, then any language's: "fante di cuori", "10 coeur", "as de picas"), optionally
    followed by the belote word ("KH belote"): the play announcing it.  The play is read,
    not judged: whether it is legal is the game's to say.  Raises InvalidNotationError when
    the text names no card.

    >>> parse_card_play("JH") == A.play(4)
    True
    >>> parse_card_play("re di cuori belote") == A.play_announcing(6)
    True
    """
    if lang is not None:
        check_language(lang)
    plain = normalize(text)
    for word in sorted(_belote_words(), key=len, reverse=True):
        if plain.endswith(" " + word):
            return A.play_announcing(_card(plain.removesuffix(word).strip(), lang))
    return A.play(_card(plain, lang))
