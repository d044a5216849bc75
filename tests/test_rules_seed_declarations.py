"""Declarations as seed 000 says them (italian and valdostana): what an announcement tells.

Seats are numbered in playing order; dealt by seat 3, seat 0 speaks and leads first.
"""

from __future__ import annotations

from helpers import of_kind
from variant_helpers import ITALIAN, italian_in_play

from belote.engine import actions as A
from belote.engine.events import DeclarationAnnounced, DeclarationsShown

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
        legal = [a for a in game.legal_actions(seat) if a < A.PLAY_ANNOUNCE_BASE]
        shown += of_kind(game.apply(legal[0], seat), DeclarationsShown)
    assert shown and shown[0].names == ("carre_J",)


def test_the_rank_is_said_with_the_flag_on() -> None:
    rules = ITALIAN.with_flags(**{"declarations.carre_rank_said": True})
    game, _ = italian_in_play(POKER, "7H", taker=0, call=A.TAKE, rules=rules)
    assert of_kind(game.apply(A.DECLARE, 0), DeclarationAnnounced)[0].names == ("carre_J",)
