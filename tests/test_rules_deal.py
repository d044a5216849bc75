"""The deal: the cut (seed 000, valdostana) and the rest of a turned-card deal from the taker
(seed 002, classic).  Seats are numbered in playing order; each test quotes its seed."""

from __future__ import annotations

import random

import pytest
from helpers import of_kind

from belote.ai.heuristic import HeuristicBot
from belote.engine import actions as A
from belote.engine.dealing import seeded_deck_source
from belote.engine.events import CardsDealt, DeckCut, HandStarted, MatchStarted
from belote.engine.state import CHANCE, Game, Phase
from belote.errors import IllegalActionError
from belote.i18n import action_name
from belote.i18n.announce import describe_event
from belote.notation import parse_action, to_action
from belote.records import replay_steps, to_record
from belote.rules import PRESETS
from belote.rules.validation import FlagError

VALDOSTANA = PRESETS["valdostana"]
CLASSIC = PRESETS["classic"]


def _deck(seed: int = 5) -> list[int]:
    return seeded_deck_source(seed)()


def test_valdostana_the_player_at_the_dealers_left_cuts_or_knocks() -> None:
    # Seed 000: "Il mazziere mischia le carte e pone al giocatore alla sua sinistra il taglio
    # del mazzo, decidendo di tagliare o fidarsi bussando sul mazzo.  Poi in senso antiorario
    # il mazziere distribuisce": counter-clockwise, the dealer's left is the seat before him
    # in playing order.
    assert VALDOSTANA.cut_deck
    game = Game(VALDOSTANA, first_dealer=0)
    events = game.deal(_deck())
    assert game.phase == Phase.CUT and game.current_player() == 3
    assert of_kind(events, MatchStarted) and not of_kind(events, CardsDealt)
    legal = game.legal_actions()
    assert legal[0] == A.KNOCK
    assert [A.cut_depth(a) for a in legal[1:]] == list(range(3, 30))  # cut_min_cards=3
    assert game.legal_actions(0) == [] and all(h == 0 for h in game.hands)


def test_a_clockwise_table_cuts_at_the_seat_after_the_dealer() -> None:
    rules = CLASSIC.with_flags(cut_deck=True)
    game = Game(rules, first_dealer=2)
    game.deal(_deck())
    assert game.current_player() == 3


def test_knocking_deals_the_deck_as_shuffled() -> None:
    deck = _deck()
    plain = Game(VALDOSTANA.with_flags(cut_deck=False), first_dealer=0)
    plain.deal(deck)
    game = Game(VALDOSTANA, first_dealer=0)
    game.deal(deck)
    events = game.apply(A.KNOCK)
    assert events[0] == DeckCut(3, 0)
    assert of_kind(events, HandStarted) and game.phase == Phase.BIDDING
    assert game.hands == plain.hands and game.cut_depth == 0


def test_a_cut_moves_the_top_cards_under_the_deck() -> None:
    deck = _deck()
    depth = 11
    plain = Game(VALDOSTANA.with_flags(cut_deck=False), first_dealer=0)
    plain.deal(deck[depth:] + deck[:depth])
    game = Game(VALDOSTANA, first_dealer=0)
    game.deal(deck)
    assert game.apply(A.cut(depth), 3)[0] == DeckCut(3, depth)
    assert game.hands == plain.hands and game.cut_depth == depth


@pytest.mark.parametrize("action", [A.cut(2), A.cut(30), A.PASS, A.cut(0)])
def test_a_cut_outside_the_allowed_depths_is_refused_and_changes_nothing(action: int) -> None:
    game = Game(VALDOSTANA, first_dealer=0)
    game.deal(_deck())
    with pytest.raises(IllegalActionError):
        game.apply(action, 3)
    with pytest.raises(IllegalActionError):
        game.apply(A.KNOCK, 0)  # not the cutter
    assert game.phase == Phase.CUT and game.current_player() == 3


def test_cut_min_cards_is_validated() -> None:
    with pytest.raises(FlagError, match="cut_min_cards"):
        VALDOSTANA.with_flags(cut_min_cards=0)
    with pytest.raises(FlagError, match="cut_min_cards"):
        VALDOSTANA.with_flags(cut_min_cards=17)
    game = Game(VALDOSTANA.with_flags(cut_min_cards=16), first_dealer=0)
    game.deal(_deck())
    assert game.legal_actions() == [A.KNOCK, A.cut(16)]


def test_the_cut_is_in_the_record_and_the_replay_is_exact() -> None:
    game = Game(VALDOSTANA, first_dealer=1)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    rng = random.Random(3)
    while not game.is_terminal() and len(game.log) < 400:
        seat = game.current_player()
        if seat == CHANCE:
            deck = list(range(32))
            rng.shuffle(deck)
            game.deal(deck)
        else:
            game.apply(bots[seat].choose(game.observation(seat)), seat)
    cuts = [a for who, a in game.log if who != CHANCE and A.is_cut(a)]  # type: ignore[arg-type]
    assert cuts and any(a != A.KNOCK for a in cuts)  # bots cut at random
    record = to_record(game)
    replayed = [state for state, _step in replay_steps(record)][-1]
    assert replayed.log == game.log and replayed.hands == game.hands
    assert replayed.totals == game.totals


def test_cut_notation_and_names_round_trip() -> None:
    for action in (A.KNOCK, A.cut(3), A.cut(29)):
        assert parse_action(to_action(action)) == action
    assert to_action(A.cut(7)) == "cut7"
    assert action_name(A.cut(7), "it") == "taglia 7 carte"
    assert action_name(A.KNOCK, "en") == "knock on the deck: no cut"
    assert describe_event(DeckCut(3, 0), "en", 0) == "West knocks on the deck: no cut."


def test_undo_takes_back_a_cut() -> None:
    game = Game(VALDOSTANA, first_dealer=0)
    game.deal(_deck())
    game.apply(A.cut(5), 3)
    game.undo()
    assert game.phase == Phase.CUT and game.current_player() == 3


# --- seed 002: the rest of the deal from the taker -----------------------------------------


def _take_by(rules_flag: bool, taker_passes: int) -> Game:
    rules = CLASSIC.with_flags(deal_rest_from_taker=rules_flag)
    game = Game(rules, first_dealer=0)
    game.deal(_deck())
    for _ in range(taker_passes):
        game.apply(A.PASS)
    return game


def test_classic_the_rest_of_the_deal_resumes_from_the_taker() -> None:
    # Seed 002: "una vez que se determina el contrato a jugar, la distribución de las cartas
    # restantes (3 por jugador) se reanuda a partir del tomador.  Por lo tanto, será él quien
    # tenga en su juego la carta previamente volteada."
    assert CLASSIC.deal_rest_from_taker
    deck = _deck()
    game = _take_by(True, 2)  # seat 3 takes, after seats 1 and 2 pass
    before = list(game.hands)
    events = game.apply(A.TAKE)
    dealt = [e for e in of_kind(events, CardsDealt)]
    assert [e.seat for e in dealt] == [3, 0, 1, 2]
    rest = deck[21:]
    assert game.hands[3] == before[3] | 1 << deck[20] | 1 << rest[0] | 1 << rest[1]
    assert game.hands[0] == before[0] | sum(1 << c for c in rest[2:5])


def test_the_rest_of_the_deal_from_the_player_after_the_dealer_with_the_flag_off() -> None:
    deck = _deck()
    game = _take_by(False, 2)
    before = list(game.hands)
    events = game.apply(A.TAKE)
    assert [e.seat for e in of_kind(events, CardsDealt)] == [1, 2, 3, 0]
    assert game.hands[1] == before[1] | sum(1 << c for c in deck[21:24])
