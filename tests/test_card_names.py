"""Card names in the four catalog languages, and reading them back (belote.i18n)."""

from __future__ import annotations

import pytest

from belote.cards import NUM_CARDS, Rank, Suit, make_card
from belote.engine.events import ALL_TRUMP, NO_TRUMP
from belote.errors import InvalidNotationError
from belote.i18n import (
    LANGUAGES,
    card_name,
    parse_card_name,
    rank_name,
    suit_name,
    trump_name,
)

JACK_OF_HEARTS = make_card(Suit.HEARTS, Rank.JACK)

RANKS = {
    "it": "sette otto nove dieci fante donna re asso",
    "es": "siete ocho nueve diez sota dama rey as",
    "fr": "sept huit neuf dix valet dame roi as",
    "en": "seven eight nine ten jack queen king ace",
}
SUITS = {
    "it": "cuori quadri fiori picche",
    "es": "corazones diamantes tréboles picas",
    "fr": "cœur carreau trèfle pique",
    "en": "hearts diamonds clubs spades",
}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("it", "fante di cuori"),
        ("es", "sota de corazones"),
        ("fr", "valet de cœur"),
        ("en", "jack of hearts"),
    ],
)
def test_jack_of_hearts(lang: str, expected: str) -> None:
    assert card_name(JACK_OF_HEARTS, lang) == expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rank_and_suit_words(lang: str) -> None:
    assert [rank_name(rank, lang) for rank in Rank] == RANKS[lang].split()
    assert [suit_name(suit, lang) for suit in Suit] == SUITS[lang].split()


def test_definite_forms() -> None:
    assert card_name(JACK_OF_HEARTS, "it", definite=True) == "il fante di cuori"
    assert (
        card_name(make_card(Suit.SPADES, Rank.ACE), "it", definite=True)
        == "l'asso di picche"
    )
    assert (
        card_name(make_card(Suit.CLUBS, Rank.QUEEN), "es", definite=True)
        == "la dama de tréboles"
    )
    assert (
        card_name(make_card(Suit.DIAMONDS, Rank.EIGHT), "fr", definite=True)
        == "le huit de carreau"
    )
    assert (
        card_name(make_card(Suit.HEARTS, Rank.KING), "en", definite=True)
        == "the king of hearts"
    )


@pytest.mark.parametrize(
    ("lang", "no_trump", "all_trump"),
    [
        ("it", "senza", "tutte"),
        ("es", "sin triunfo", "todo triunfo"),
        ("fr", "sans atout", "tout atout"),
        ("en", "no trump", "all trump"),
    ],
)
def test_trump_names(lang: str, no_trump: str, all_trump: str) -> None:
    assert trump_name(NO_TRUMP, lang) == no_trump
    assert trump_name(ALL_TRUMP, lang) == all_trump
    assert trump_name(Suit.SPADES, lang) == suit_name(Suit.SPADES, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_names_are_distinct(lang: str) -> None:
    assert len({card_name(card, lang) for card in range(NUM_CARDS)}) == NUM_CARDS


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("definite", [False, True])
def test_every_name_round_trips(lang: str, definite: bool) -> None:
    for card in range(NUM_CARDS):
        name = card_name(card, lang, definite=definite)
        assert parse_card_name(name, lang) == card, name
        assert parse_card_name(name) == card, name
        assert parse_card_name(name.upper()) == card, name


@pytest.mark.parametrize(
    ("text", "lang", "card"),
    [
        ("valet de coeur", None, JACK_OF_HEARTS),
        ("Valet de Cœur", "fr", JACK_OF_HEARTS),
        ("valet coeur", "fr", JACK_OF_HEARTS),
        ("  fante   cuori ", None, JACK_OF_HEARTS),
        ("fante cuori", "it", JACK_OF_HEARTS),
        ("SOTA CORAZONES", "es", JACK_OF_HEARTS),
        ("jack hearts", "en", JACK_OF_HEARTS),
        ("sota de treboles", None, make_card(Suit.CLUBS, Rank.JACK)),
        ("dix de trefle", "fr", make_card(Suit.CLUBS, Rank.TEN)),
        ("l'asso di picche", None, make_card(Suit.SPADES, Rank.ACE)),
        ("asso picche", None, make_card(Suit.SPADES, Rank.ACE)),
        ("as de pique", None, make_card(Suit.SPADES, Rank.ACE)),
        ("as de picas", None, make_card(Suit.SPADES, Rank.ACE)),
        ("the queen of diamonds.", None, make_card(Suit.DIAMONDS, Rank.QUEEN)),
        ("re di quadri", "it", make_card(Suit.DIAMONDS, Rank.KING)),
    ],
)
def test_forgiving_forms(text: str, lang: str | None, card: int) -> None:
    assert parse_card_name(text, lang) == card


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("", None),
        ("   ", None),
        ("joker", None),
        ("fante di", None),
        ("di cuori", None),
        ("valet de cuori", None),
        ("jack of hearts of spades", None),
        ("11 of hearts", None),
        ("JH", None),
        ("fante di cuori", "fr"),
        ("valet de cœur", "en"),
    ],
)
def test_garbage_is_rejected(text: str, lang: str | None) -> None:
    with pytest.raises(InvalidNotationError, match="card name"):
        parse_card_name(text, lang)


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="unknown language 'de'"):
        parse_card_name("fante di cuori", "de")
    with pytest.raises(ValueError, match="unknown language"):
        card_name(JACK_OF_HEARTS, "de")


def test_out_of_range() -> None:
    with pytest.raises(ValueError, match="card"):
        card_name(NUM_CARDS, "en")
    with pytest.raises(ValueError, match="suit"):
        suit_name(4, "en")
