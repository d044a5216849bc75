"""Card and action notation: parse_* / to_* round trips and clear errors."""

from __future__ import annotations

import pytest

from belote.cards import ALL_CARDS, Rank, Suit, card_list, cards_in, make_card, rank_of, suit_of
from belote.engine import actions as A
from belote.errors import InvalidNotationError
from belote.notation import (
    parse_action,
    parse_card,
    parse_cards,
    to_action,
    to_card,
    to_cards,
)

JACK_OF_HEARTS = make_card(Suit.HEARTS, Rank.JACK)


def test_cards_are_bits_of_a_32_bit_int() -> None:
    assert ALL_CARDS == 0xFFFFFFFF
    assert card_list(ALL_CARDS) == list(range(32)) == list(cards_in(ALL_CARDS))
    assert suit_of(JACK_OF_HEARTS) == Suit.HEARTS and rank_of(JACK_OF_HEARTS) == Rank.JACK


@pytest.mark.parametrize("text", ["JH", "jh", " J♥ ", "J♡"])
def test_parse_card_accepts_letters_and_symbols(text: str) -> None:
    assert parse_card(text) == JACK_OF_HEARTS


def test_ten_is_written_10_or_t() -> None:
    assert parse_card("10H") == parse_card("TH") == make_card(Suit.HEARTS, Rank.TEN)
    assert to_card(parse_card("TH")) == "10H"


def test_every_card_round_trips_in_both_styles() -> None:
    for card in range(32):
        assert parse_card(to_card(card)) == card
        assert parse_card(to_card(card, symbols=True)) == card


@pytest.mark.parametrize("text", ["", "J", "1H", "11H", "JX", "HJ", "10", "JHH"])
def test_a_malformed_card_is_a_clear_error(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="not a card"):
        parse_card(text)


def test_card_lists_round_trip_and_refuse_duplicates() -> None:
    mask = parse_cards("JH, 10H 7S")
    assert to_cards(mask) == "10H JH 7S"
    with pytest.raises(InvalidNotationError, match="twice"):
        parse_cards("JH jh")


def test_every_action_round_trips() -> None:
    ids = [*range(64), A.PASS, A.TAKE, *range(A.NAME_SUIT_BASE, A.NAME_SUIT_BASE + 4),
           A.SENZA, A.TUTTE, A.ANNOUNCE_BELOTE]
    for action in ids:
        assert parse_action(to_action(action)) == action
    assert to_action(A.PLAY_ANNOUNCE_BASE + parse_card("KH")) == "KH+belote"


def test_an_unknown_action_is_a_clear_error() -> None:
    with pytest.raises(InvalidNotationError, match="not an action"):
        parse_action("double")
    with pytest.raises(InvalidNotationError):
        to_action(999)
