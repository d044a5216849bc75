"""A card typed by a player (issue 25): one parser, ``parse_card_play``, for the terminal
table and the web room's command box: notation or a name in any language, and the belote
announced with it."""

from __future__ import annotations

import io

import pytest

from belote.cards import Rank, Suit, make_card
from belote.cli.play import TerminalPlayer
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.state import Game, Phase
from belote.errors import InvalidNotationError
from belote.i18n import card_name
from belote.i18n.parse import parse_card_name, parse_card_play
from belote.notation import to_card
from belote.rules import find_preset

JH = make_card(Suit.HEARTS, Rank.JACK)
TEN_H = make_card(Suit.HEARTS, Rank.TEN)
ACE_S = make_card(Suit.SPADES, Rank.ACE)
KING_H = make_card(Suit.HEARTS, Rank.KING)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("JH", JH),  # the four examples
        ("fante di cuori", JH),
        ("10 coeur", TEN_H),
        ("as de picas", ACE_S),
        ("jh", JH),
        ("J♥", JH),
        ("TH", TEN_H),
        ("10 de corazones", TEN_H),
        ("10 of hearts", TEN_H),
        ("dix de cœur", TEN_H),
        ("  Valet   de Cœur. ", JH),
        ("7 fiori", make_card(Suit.CLUBS, Rank.SEVEN)),
    ],
)
def test_a_typed_card_is_read_in_any_language(text: str, card: int) -> None:
    assert parse_card_play(text) == A.play(card)
    assert parse_card_play(text, "en") == A.play(card)


@pytest.mark.parametrize("text", ["KH belote", "re di cuori belote", "roi de coeur rebelote",
                                  "rey de corazones annuncio belote", "KH Belote!"])
def test_a_belote_word_after_the_card_announces_it(text: str) -> None:
    assert parse_card_play(text) == A.play_announcing(KING_H)


@pytest.mark.parametrize("text", ["", "   ", "hello", "belote", "fante di", "11 of hearts",
                                  "0 coeur", "JH JH", "jack of hearts please", "ZZ",
                                  "belote KH"])
def test_a_text_that_names_no_card_is_refused(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_card_play(text)


def test_a_low_card_by_its_number_is_a_card_name_too() -> None:
    assert parse_card_name("10 coeur", "fr") == TEN_H
    assert parse_card_name("9 di picche") == make_card(Suit.SPADES, Rank.NINE)
    with pytest.raises(InvalidNotationError):
        parse_card_name("J coeur")  # letters are the notation's: "JH"


def test_an_unknown_language_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        parse_card_play("JH", "de")


def king_opens_belote(seed_limit: int = 400) -> Game:
    """A classic game, bids made by the first offer, at the first moment the seat to play
    may play the king of trump announcing belote."""
    for seed in range(seed_limit):
        game = Game(find_preset("classic"), first_dealer=0)
        game.deal(seeded_deck_source(seed)())
        while game.phase == Phase.BIDDING:
            legal = game.legal_actions()
            take = [a for a in legal if a != A.PASS]
            game.apply(take[0] if take else legal[0])
        while game.phase == Phase.PLAYING:
            king = make_card(game.trump, Rank.KING)
            if A.play_announcing(king) in game.legal_actions():
                return game
            game.apply(game.legal_actions()[0])
    raise AssertionError(f"no such deal in {seed_limit} seeds")


def test_the_terminal_reads_a_typed_card_with_the_same_parser() -> None:
    """`belote play` plays "KH belote" announcing it, and refuses a card it may not play
    with the engine's reason (the web room's command box: tests/server/test_typed_cards.py)."""
    game = king_opens_belote()
    seat = game.current_player()
    obs = game.observation(seat)
    player = TerminalPlayer(game, "en", io.StringIO(), io.StringIO(), ["N", "E", "S", "W"],
                            seat)
    options = [a for a in obs.legal_actions if a < A.PLAY_ANNOUNCE_BASE]
    king = make_card(game.trump, Rank.KING)
    typed = f"{to_card(king)} belote"
    assert player._interpret(typed, obs, options, []) == A.play_announcing(king)
    first = A.played_card(options[0])
    assert player._interpret(card_name(first, "it"), obs, options, []) == options[0]
    missing = next(c for c in range(32) if not game.hands[seat] >> c & 1)
    assert player._interpret(card_name(missing, "fr"), obs, options, []) is None
    said = player.stdout.getvalue()  # type: ignore[attr-defined]
    assert f"You do not have {card_name(missing, 'en', definite=True)}." in said
    assert player._interpret("zzz", obs, options, []) is None
    assert "zzz" in player.stdout.getvalue()  # type: ignore[attr-defined]
