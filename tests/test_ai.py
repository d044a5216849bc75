"""Bots: the player protocol, and the heuristic bot's conventions from seed 000 ("Le mosse")."""

from __future__ import annotations

import dataclasses

from belote.ai import make_bot
from belote.ai.heuristic import HeuristicBot
from belote.ai.random_bot import RandomBot
from belote.cards import Suit
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.observation import Observation
from belote.notation import parse_card, parse_cards
from belote.rules import find_preset
from belote.sim.match import play_match

CLASSIC = find_preset("classic")


def position(seat: int, hand: str, taker: int, trump: int, trick: list[tuple[int, str]],
             played: str = "", trick_no: int = 1) -> Observation:
    """An observation in the card play with ``trick`` on the table."""
    from belote.engine.obligations import legal_plays

    cards = [parse_card(c) for _, c in trick]
    mask = parse_cards(hand)
    legal = legal_plays(mask, cards, trump, CLASSIC)
    leader = trick[0][0] if trick else seat
    return Observation(
        seat=seat, rules="classic", phase=2, deal_no=0, dealer=3, current_player=seat,
        hand=mask, hand_sizes=(8, 8, 8, 8), turned=None, bids=(), taker=taker, trump=trump,
        leader=leader, trick=tuple((s, parse_card(c)) for s, c in trick), trick_no=trick_no,
        last_trick=None, played=parse_cards(played) | sum(1 << c for c in cards),
        tricks_won=(0, 0), card_points=(0, 0), belote_said=(), totals=(0, 0), pot=0,
        legal_actions=tuple(c for c in range(32) if legal >> c & 1), winner=None,
    )


def test_mossa_casaro_taker_leading_first_leads_the_trump_jack() -> None:
    # Seed 000: "Mossa Casaro: se è 'primo di mano', il chiamante gioca il Jack".
    obs = position(seat=0, hand="JH 7H AS 10S 8C 9D KD 7S", taker=0, trump=Suit.HEARTS,
                   trick=[], trick_no=0)
    assert HeuristicBot().choose(obs) == parse_card("JH")


def test_mossa_casaro_then_the_nine_once_the_jack_is_gone() -> None:
    # Seed 000: "e successivamente, se lo possiede il nove, con lo stesso scopo".
    obs = position(seat=0, hand="9H 7H AS 10S 8C 9D", taker=0, trump=Suit.HEARTS, trick=[],
                   played="JH 8H QH 7D 8D 10D 7C 9C", trick_no=2)
    assert HeuristicBot().choose(obs) == parse_card("9H")


def test_gives_the_ten_on_partners_ace() -> None:
    # Seed 000: "Se il proprio compagno gioca un asso ... è conveniente giocare il dieci".
    obs = position(seat=2, hand="10S 7S 8H AD 9C QC 7D KD", taker=1, trump=Suit.HEARTS,
                   trick=[(0, "AS"), (1, "8S")])
    assert HeuristicBot().choose(obs) == parse_card("10S")


def test_does_not_trump_a_trick_its_partner_is_winning() -> None:
    # Seed 002: must trump "excepto si su compañero es el dueño de la baza".
    obs = position(seat=2, hand="7H 9H 8D AD 9C QC 7D KD", taker=1, trump=Suit.HEARTS,
                   trick=[(0, "AS"), (1, "8S")])
    choice = HeuristicBot().choose(obs)
    assert choice >> 3 != Suit.HEARTS and choice in obs.legal_actions


def test_announces_belote_with_the_card() -> None:
    obs = position(seat=0, hand="KH QH 7S", taker=0, trump=Suit.HEARTS, trick=[],
                   played="JH 9H AH 10H", trick_no=5)
    with_announce = dataclasses.replace(
        obs, legal_actions=(*obs.legal_actions, A.PLAY_ANNOUNCE_BASE + parse_card("KH")))
    # The taker leads its master trump (the king) and says "belote" with it.
    assert HeuristicBot().choose(with_announce) == A.PLAY_ANNOUNCE_BASE + parse_card("KH")


def test_bots_play_whole_matches_through_the_player_protocol() -> None:
    for names in (("heuristic", "random"), ("random", "heuristic")):
        players = [make_bot(names[s % 2], s) for s in range(4)]
        game = play_match(CLASSIC, players, seeded_deck_source(3))
        assert game.is_terminal() and game.winner in (0, 1)


def test_heuristic_beats_random_clearly() -> None:
    wins = 0
    for i in range(20):
        players = [HeuristicBot() if s % 2 == i % 2 else RandomBot(i * 4 + s) for s in range(4)]
        game = play_match(CLASSIC, players, seeded_deck_source(i), i % 4)
        wins += game.winner == i % 2
    assert wins >= 16
