"""Declarations as seed 000 says them (italian and valdostana): what an announcement tells.

Seats are numbered in playing order; dealt by seat 3, seat 0 speaks and leads first.
"""

from __future__ import annotations

import pytest
from helpers import of_kind
from variant_helpers import ITALIAN, VALDOSTANA, auction_game, bid, calls, italian_in_play, mask

from belote.engine import actions as A
from belote.engine.events import DeclarationAnnounced, DeclarationsShown
from belote.engine.state import Game
from belote.errors import IllegalActionError
from belote.rules.declarations import find_declarations, valdostana_valid

# Seat 0 holds the carré of jacks and takes the turned 7H.
POKER = {
    0: "JH JD JC JS 7H 8C 9D AS",
    1: "8H 9H 10H AH 7D 8D 10D QD",
    2: "QH KH 7C 10C QC KC AC KS",
    3: "KD AD 9C 7S 8S 9S 10S QS",
}


def test_italian_a_poker_is_announced_without_its_rank() -> None:
    # Seed 000: "i giocatori possono dichiarare delle 'terze', 'quarte', 'quinte' ecc., ... o
    # dei poker, senza specificare di che natura."
    assert ITALIAN.declarations is not None and not ITALIAN.declarations.carre_rank_said
    game, _ = italian_in_play(POKER, "7H", taker=0, call=A.TAKE)
    events = game.apply(A.DECLARE, 0)
    assert of_kind(events, DeclarationAnnounced)[0].names == ("carre",)
    assert game.declarations_said == [(0, ("carre",))]
    for seat in (1, 2, 3):
        assert game.observation(seat).declarations_said == ((0, ("carre",)),)


def test_italian_the_poker_rank_is_seen_when_shown() -> None:
    # Seed 000: "Alla seconda mano può essere richiesto di mostrare queste dichiarazioni".
    game, _ = italian_in_play(POKER, "7H", taker=0, call=A.TAKE)
    game.apply(A.DECLARE, 0)
    shown = []
    while game.trick_no < 2:
        seat = game.current_player()
        legal = game.legal_actions(seat)
        # Italian shows on an opponent's request: the first opponent at the second trick asks.
        ask = A.REQUEST_SHOW in legal
        action = A.REQUEST_SHOW if ask else next(a for a in legal if a < A.PLAY_ANNOUNCE_BASE)
        shown += of_kind(game.apply(action, seat), DeclarationsShown)
    assert shown and shown[0].names == ("carre_J",)


def test_the_rank_is_said_with_the_flag_on() -> None:
    rules = ITALIAN.with_flags(**{"declarations.carre_rank_said": True})
    game, _ = italian_in_play(POKER, "7H", taker=0, call=A.TAKE, rules=rules)
    assert of_kind(game.apply(A.DECLARE, 0), DeclarationAnnounced)[0].names == ("carre_J",)


# --- valdostana ---------------------------------------------------------------------------

TIERCE, CINQUANTE, CENT, CARRE = (A.DECLARE_NAME_BASE + i for i in range(4))
# Seat 0: a cinquante 7-10 of spades (and nothing else); seat 1: the carré of jacks.
ACCUSI = {
    0: "7S 8S 9S 10S 7D 9D AH QC",
    1: "JS JH JD JC 7C 9C AC QD",
    2: "7H 9H QH 10D AD 8C 8D KS",
    3: "8H 10H KH KD 10C KC QS AS",
}


def _valdostana_in_play() -> Game:
    game, _ = auction_game(ACCUSI)
    calls(game, bid(VALDOSTANA, 82, 0), A.PASS, A.PASS, A.PASS)
    return game


def _card(game: Game, seat: int) -> int:
    return min(a for a in game.legal_actions(seat) if a < A.PLAY_ANNOUNCE_BASE)


def test_valdostana_an_accuso_may_be_said_until_the_next_card_covers_it() -> None:
    # Seed 000: "un accuso non dichiarato nel proprio turno, ovvero prima che la carta
    # avversaria abbia coperto la carta giocata, è NULLO".
    assert VALDOSTANA.declarations is not None
    assert VALDOSTANA.declarations.announce_until_covered
    game = _valdostana_in_play()
    game.apply(_card(game, 0), 0)  # seat 0 plays without announcing
    assert CINQUANTE in game.legal_actions(0) and game.is_legal(CINQUANTE, 0)
    events = game.apply(CINQUANTE, 0)  # out of turn, before seat 1 covers
    assert of_kind(events, DeclarationAnnounced) == [DeclarationAnnounced(0, ("cinquante",))]
    assert game.current_player() == 1
    game.apply(_card(game, 1), 1)  # seat 1 covers; seat 1's own window is open now
    assert CARRE in game.legal_actions(1)
    game.apply(_card(game, 2), 2)  # covered: too late for seat 1
    with pytest.raises(IllegalActionError):
        game.apply(CARRE, 1)


def test_without_the_flag_an_accuso_is_said_before_ones_own_card() -> None:
    rules = VALDOSTANA.with_flags(**{"declarations.announce_until_covered": False})
    game, _ = auction_game(ACCUSI, rules=rules)
    calls(game, bid(rules, 82, 0), A.PASS, A.PASS, A.PASS)
    game.apply(_card(game, 0), 0)
    assert not {TIERCE, CINQUANTE} & set(game.legal_actions(0))
    with pytest.raises(IllegalActionError):
        game.apply(CINQUANTE, 0)


def test_valdostana_a_tierce_said_inside_a_cinquante_voids_the_cinquante() -> None:
    # Seed 000: "l'accuso di una combinazione di valore +basso rende nulla quella di valore
    # +alto eventualmente posseduta": holding only a cinquante, "tierce" is offered, and
    # saying it leaves the tierce inside (its best three cards, 8-9-10) and voids the rest.
    game = _valdostana_in_play()
    assert {TIERCE, CINQUANTE} <= set(game.legal_actions(0))
    game.apply(TIERCE, 0)
    while game.trick_no == 0:
        seat = game.current_player()
        game.apply(_card(game, seat), seat)
    assert game.declaration_points == (20, 0)


def test_valdostana_valid_keeps_the_tierce_inside_and_voids_the_longer() -> None:
    rules = VALDOSTANA.declarations
    assert rules is not None
    held = find_declarations(mask("7S 8S 9S 10S JS 7D 8D 9D"), rules, 0)
    valid = valdostana_valid("cinquante", held, rules, 0)
    assert sorted(d.name for d in valid) == ["sequence_3", "sequence_4"]
    inner = next(d for d in valid if d.length == 4)
    assert inner.top == 4 and inner.suit == 3  # 8-9-10-J of spades, the best four
    assert valdostana_valid("cinquante", held) == []  # without the rules: not held, nothing
